import { TITLE_SEPARATORS } from '../content/title-separators.ts';

/** A page's title without the trailing `| Site` (or `· Site`, `— Site`, `- Site`) that titles usually carry. */
export function cleanPageTitle(title: string, siteName: string): string {
  const trimmed = title.trim();
  for (const separator of TITLE_SEPARATORS) {
    const suffix = `${separator}${siteName}`;
    if (trimmed.endsWith(suffix)) return trimmed.slice(0, -suffix.length).trim();
  }
  return trimmed;
}
