/**
 * A page's language tag in its canonical BCP 47 form (RFC 5646 §2.1.1: `en-us` → `en-US`), or `""`
 * when the page gives none or one that is not well-formed: such a page takes the site's language.
 */
export function canonicalLanguageTag(tag: string): string {
  let canonical = canonicalTags.get(tag);
  if (canonical === undefined) {
    try {
      canonical = Intl.getCanonicalLocales(tag.trim())[0] ?? '';
    } catch {
      canonical = '';
    }
    // A site has a few tags and the build asks for them on every page, and Intl's answer is slow to make.
    if (canonicalTags.size < MAX_CANONICAL_TAGS) canonicalTags.set(tag, canonical);
  }
  return canonical;
}

const canonicalTags = new Map<string, string>();
/** Tags remembered at most: they come from the pages, which may each write another. */
const MAX_CANONICAL_TAGS = 1000;

/** The primary language subtag (RFC 5646 §2.2.1), lowercase: `pt-BR` → `pt`. What the search's analysis is chosen by. */
export function primaryLanguageSubtag(tag: string): string {
  return tag.toLowerCase().split('-')[0]!;
}

/**
 * A language range as a client writes it (RFC 4647 §2.1: subtags of 1 to 8 letters or digits, or
 * `*`), `_` read as `-` (`zh_CN`, as locales are often written).
 */
export const LANGUAGE_RANGE = /^(?:\*|[a-zA-Z]{1,8}(?:[-_][a-zA-Z0-9]{1,8})*)$/;

/**
 * The site's languages that a language range asks for, case-insensitively (RFC 4647 §2.1): basic
 * filtering (§3.3.1) — the tag itself and every tag it is a prefix of at a `-`, so `pt` takes `pt-BR`
 * and `pt-PT`; when none matches, the range is shortened one subtag at a time as lookup does (§3.4),
 * so `en-US` takes `en` and `zh-Hant-TW` takes `zh-Hant` or `zh`. `*` takes every language; none
 * matched is `[]`.
 */
export function matchLanguageRange(range: string, languages: readonly string[]): string[] {
  const wanted = range.trim().toLowerCase().replaceAll('_', '-');
  if (wanted === '*') return [...languages];
  for (
    let prefix = wanted;
    prefix !== '';
    prefix = prefix.slice(0, Math.max(0, prefix.lastIndexOf('-')))
  ) {
    // §3.4: a single-letter subtag (an extension or private use, `-x-…`) goes with the one after it.
    if (/-[a-z0-9]$/.test(prefix)) continue;
    const matched = languages.filter((tag) => {
      const lower = tag.toLowerCase();
      return lower === prefix || lower.startsWith(`${prefix}-`);
    });
    if (matched.length > 0) return matched;
  }
  return [];
}
