import type { HttpAnswer, SiteHttp } from './site-http.ts';

export interface LlmsLink {
  text: string;
  /** Absolute URL. */
  url: string;
  /** The file that lists it: llms.txt or one of its section files. */
  listedIn: string;
}

export interface LlmsTxt {
  answer: HttpAnswer;
  /** The links of llms.txt and of the section files it links (`/llms/<section>.txt`), in order. */
  links: LlmsLink[];
  /** Section files that did not answer 200. */
  problems: string[];
}

/** Section files read at most: a large site splits its list, an index of thousands is a mistake to report, not to crawl. */
const MAX_SECTION_FILES = 200;
const LINK = /\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** The `[text](url)` links of a Markdown text, resolved against its URL. */
export function markdownLinks(markdown: string, base: string): { text: string; url: string }[] {
  const links: { text: string; url: string }[] = [];
  for (const match of markdown.matchAll(LINK)) {
    try {
      links.push({ text: match[1]!, url: new URL(match[2]!, base).href });
    } catch {
      // Not a URL: llms-txt-structure reports what it cannot read.
    }
  }
  return links;
}

/** llms.txt and the section files it links on the same site (a `.txt` link other than llms-full.txt). */
export async function readLlmsTxt(http: SiteHttp, answer: HttpAnswer): Promise<LlmsTxt> {
  const result: LlmsTxt = { answer, links: [], problems: [] };
  const queue: { url: string; text: string }[] = [{ url: answer.url, text: answer.text }];
  const read = new Set([answer.url]);
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const link of markdownLinks(file.text, file.url)) {
      const path = new URL(link.url).pathname;
      if (
        http.isOnSite(link.url) &&
        path.endsWith('.txt') &&
        !path.endsWith('/llms-full.txt') &&
        !read.has(link.url) &&
        read.size < MAX_SECTION_FILES
      ) {
        read.add(link.url);
        const section = await http.fetch(link.url);
        if (section.status === 200) queue.push({ url: link.url, text: section.text });
        else
          result.problems.push(
            `${link.url} (listed in ${file.url}) answered ${section.status || section.error}`,
          );
        continue;
      }
      result.links.push({ ...link, listedIn: file.url });
    }
  }
  return result;
}
