import { decodeEntities } from './target.ts';

export type PageKind = 'home' | 'service' | 'service-city' | 'city' | 'guide' | 'other';

/** The kind of a site page by its URL scheme (`/servicios/{servicio}/{ciudad}/` and so on). */
export function classifyPage(url: string): PageKind {
  const segments = new URL(url, 'http://site.invalid').pathname.split('/').filter(Boolean);
  if (segments.length === 0) return 'home';
  const [section] = segments;
  if (section === 'servicios' && segments.length === 2) return 'service';
  if (section === 'servicios' && segments.length === 3) return 'service-city';
  if (section === 'ciudades' && segments.length === 2) return 'city';
  if (section === 'guias' && segments.length === 2) return 'guide';
  return 'other';
}

/** First, middle and last page of each kind, so the sample covers the whole catalogue deterministically. */
export function samplePages(urls: string[], perKind = 3): Map<PageKind, string[]> {
  const byKind = new Map<PageKind, string[]>();
  for (const url of urls) {
    const kind = classifyPage(url);
    byKind.set(kind, [...(byKind.get(kind) ?? []), url]);
  }
  const sample = new Map<PageKind, string[]>();
  for (const [kind, all] of byKind) {
    if (kind === 'other' || all.length <= perKind) {
      sample.set(kind, all);
      continue;
    }
    const picks = new Set<string>();
    for (let i = 0; i < perKind; i++)
      picks.add(all[Math.round((i * (all.length - 1)) / (perKind - 1))]!);
    sample.set(kind, [...picks]);
  }
  return sample;
}

export interface FoundLink {
  /** The attribute value as written, entities decoded. */
  href: string;
  tag: string;
}

/** Links of an HTML document: `href` of a/link/area and `src` of script/img/iframe/source, outside comments. */
export function extractLinks(html: string): FoundLink[] {
  const markup = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/gi, '$1');
  const links: FoundLink[] = [];
  for (const tag of markup.matchAll(/<(a|link|area|script|img|iframe|source)\b([^>]*)>/gi)) {
    const name = tag[1]!.toLowerCase();
    const attribute = name === 'a' || name === 'link' || name === 'area' ? 'href' : 'src';
    const value = readAttribute(tag[2]!, attribute);
    if (value !== undefined) links.push({ href: value, tag: name });
  }
  return links;
}

/** Every `id` of an HTML document (targets of `#fragment` links). */
export function extractIds(html: string): Set<string> {
  const ids = new Set<string>();
  for (const tag of html.matchAll(/<[a-z][a-z0-9-]*\b([^>]*)>/gi)) {
    const id = readAttribute(tag[1]!, 'id');
    if (id) ids.add(id);
  }
  return ids;
}

function readAttribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(
    `(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`,
    'i',
  ).exec(attributes);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}
