/** A page's title without the trailing `| Site` (or `— Site`, `- Site`) that titles usually carry. */
export function cleanPageTitle(title: string, siteName: string): string {
  const trimmed = title.trim();
  for (const separator of [' | ', ' — ', ' – ', ' - ']) {
    const suffix = `${separator}${siteName}`;
    if (trimmed.endsWith(suffix)) return trimmed.slice(0, -suffix.length).trim();
  }
  return trimmed;
}
