import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { SiteHttp } from './site-http.ts';

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface Sitemap {
  /** The sitemap (or sitemap index) read first. */
  url: string;
  entries: SitemapEntry[];
  /** What is wrong with the files read: not XML, neither a urlset nor a sitemapindex, unreachable. */
  problems: string[];
}

/** A sitemap index may name sitemaps that are indexes again; this many files are read at most. */
const MAX_FILES = 50;

const parser = new XMLParser({
  ignoreAttributes: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
  parseTagValue: false,
});

/** The pages of a sitemap or sitemap index (sitemaps.org protocol 0.9), following the index's sitemaps on the same site. */
export async function readSitemap(http: SiteHttp, url: string): Promise<Sitemap> {
  const sitemap: Sitemap = { url, entries: [], problems: [] };
  const queue = [url];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const answer = await http.fetch(next);
    if (answer.status !== 200) {
      sitemap.problems.push(`${next} answered ${answer.status || answer.error}`);
      continue;
    }
    const valid = XMLValidator.validate(answer.text);
    if (valid !== true) {
      sitemap.problems.push(
        `${next} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`,
      );
      continue;
    }
    const document = parser.parse(answer.text) as {
      urlset?: { url?: { loc?: string; lastmod?: string }[] };
      sitemapindex?: { sitemap?: { loc?: string }[] };
    };
    if (document.urlset) {
      for (const entry of document.urlset.url ?? []) {
        if (typeof entry.loc === 'string')
          sitemap.entries.push({
            loc: entry.loc.trim(),
            ...(entry.lastmod ? { lastmod: String(entry.lastmod).trim() } : {}),
          });
      }
    } else if (document.sitemapindex) {
      for (const child of document.sitemapindex.sitemap ?? []) {
        if (typeof child.loc === 'string' && http.isOnSite(child.loc.trim()))
          queue.push(child.loc.trim());
        else sitemap.problems.push(`${next} names a sitemap on another host: ${child.loc}`);
      }
    } else {
      sitemap.problems.push(`${next} is neither a <urlset> nor a <sitemapindex>`);
    }
  }
  return sitemap;
}
