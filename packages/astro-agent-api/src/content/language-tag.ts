/**
 * A page's language tag in its canonical BCP 47 form (RFC 5646 §2.1.1: `en-us` → `en-US`), or `""`
 * when the page gives none or one that is not well-formed: such a page takes the site's language.
 */
export function canonicalLanguageTag(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? '';
  } catch {
    return '';
  }
}

/** The primary language subtag (RFC 5646 §2.2.1), lowercase: `pt-BR` → `pt`. What the search's analysis is chosen by. */
export function primaryLanguageSubtag(tag: string): string {
  return tag.toLowerCase().split('-')[0]!;
}
