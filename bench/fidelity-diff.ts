/**
 * `node bench/fidelity-diff.ts [--sites demo,docs,3000] [--before REF] [--samples N] [--out DIR]`: every
 * page of each site converted by this branch's converter and by the one of REF (default `main`), side
 * by side: the Markdown, the sections, the title, the description, the date, the facets, the
 * language and the Pagefind attributes. Prints per site how many pages are identical and how many
 * differ (in what), and the first lines that differ on a sample of pages; `--out` writes both
 * versions of every differing page's Markdown there, to read with `diff -r`.
 * The sites' pages come from bench/conversion-sites.ts (their HTML as Astro wrote it). `--fuzz N`
 * then converts N generated pages with both (fast-check: Latin and CJK text, Markdown's own
 * characters, emphasis, links, code, images and breaks in paragraphs, headings, list items, table
 * cells and quotes) and stops at the first that differs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { listHtmlPages } from '../packages/astro-agent-api/src/build/build-markdown.ts';
import {
  buildMarkdownFromHtml,
  type PageMarkdown,
} from '../packages/astro-agent-api/src/build/html-to-markdown.ts';
import {
  buildPageText,
  buildSectionLines,
  joinSectionLines,
} from '../packages/astro-agent-api/src/content/plain-text.ts';
import { createSiteUrls } from '../packages/astro-agent-api/src/contract/site-urls.ts';
import { importConverterAt, prepareSitePages } from './conversion-sites.ts';

const { values: args } = parseArgs({
  options: {
    sites: { type: 'string', default: 'demo,docs,3000' },
    before: { type: 'string', default: 'main' },
    samples: { type: 'string', default: '6' },
    out: { type: 'string' },
    fuzz: { type: 'string', default: '0' },
  },
});

/** The fields of a conversion compared, each as one string. */
function fieldsOf(page: PageMarkdown | undefined): Record<string, string> {
  if (!page) return { excluded: 'yes' };
  const { markdown, sections, pagefind, facets, ...rest } = page;
  return {
    markdown,
    sections: JSON.stringify(sections),
    pagefind: JSON.stringify(pagefind ?? null),
    facets: JSON.stringify(facets),
    metadata: JSON.stringify(
      Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))),
    ),
  };
}

/** The first line that differs, with a line of context each side. */
function firstDifference(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const show = (lines: string[]) =>
    lines
      .slice(Math.max(0, line - 1), line + 2)
      .map((text) => `    ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`)
      .join('\n');
  return `  line ${line + 1}\n  before:\n${show(a)}\n  after:\n${show(b)}`;
}

const { commit, convert: before } = await importConverterAt(args.before);
const samples = Number(args.samples);
for (const site of args.sites.split(',').map((name) => name.trim())) {
  const dir = await prepareSitePages(site);
  const urls = createSiteUrls('https://example.com');
  const pages = (await listHtmlPages(dir, urls)).pages;
  let identical = 0;
  const plainTextDiffers: string[] = [];
  const differing: { path: string; fields: string[]; detail: string }[] = [];
  const byField = new Map<string, number>();
  for (const page of pages) {
    const html = readFileSync(page.file, 'utf8');
    const pageUrl = urls.pageUrl(page.path);
    const old = fieldsOf(before(html, { pageUrl }));
    const converted = buildMarkdownFromHtml(html, { pageUrl });
    const now = fieldsOf(converted);
    // The build makes a page's plain text once, by sections, and joins the lines for its one-line text (build-markdown.ts).
    if (
      converted &&
      joinSectionLines(buildSectionLines(converted.markdown, converted.sections)) !==
        buildPageText(converted.markdown).text
    )
      plainTextDiffers.push(page.path);
    const fields = [...new Set([...Object.keys(old), ...Object.keys(now)])].filter(
      (field) => old[field] !== now[field],
    );
    if (fields.length === 0) {
      identical++;
      continue;
    }
    for (const field of fields) byField.set(field, (byField.get(field) ?? 0) + 1);
    const field = fields[0]!;
    differing.push({
      path: page.path,
      fields,
      detail: firstDifference(old[field] ?? '', now[field] ?? ''),
    });
    if (args.out) {
      for (const [side, fieldsOfSide] of [
        ['before', old],
        ['after', now],
      ] as const) {
        const file = join(args.out, site, side, `${page.path.replace(/\/$/, '/index')}.md`);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(
          file,
          `${fieldsOfSide.markdown ?? ''}\n<!-- ${fieldsOfSide.metadata} ${fieldsOfSide.sections} -->\n`,
        );
      }
    }
  }
  console.log(
    `${site}: ${pages.length} pages, ${identical} identical, ${differing.length} differing from ${commit}${differing.length > 0 ? ` (${[...byField].map(([field, count]) => `${field} ${count}`).join(', ')})` : ''}`,
  );
  console.log(
    `${site}: the plain text joined from its lines per section ${plainTextDiffers.length === 0 ? 'is the one-line plain text on every page' : `differs from the one-line plain text on ${plainTextDiffers.length} pages: ${plainTextDiffers.slice(0, samples).join(', ')}`}`,
  );
  for (const { path, fields, detail } of differing.slice(0, samples))
    console.log(`- ${path} (${fields.join(', ')})\n${detail}`);
}

const fuzzRuns = Number(args.fuzz);
if (fuzzRuns > 0) {
  const escapeHtml = (text: string) =>
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;');
  const letters = fc.constantFrom('付き', 'ページ', '文档', '検索', 'abc', 'Starlight', '42');
  const punctuation = fc.constantFrom(
    '。',
    '、',
    '「',
    '」',
    '！',
    '（',
    '）',
    '.',
    ',',
    '!',
    '?',
    ':',
    '#',
    '*',
    '_',
    '`',
    '[',
    ']',
    '-',
    '+',
    '|',
    '<',
    '\\',
    '~',
  );
  const run = fc
    .array(fc.oneof(letters, punctuation, fc.constant(' ')), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join(''));
  const segment = fc.oneof(
    run.map(escapeHtml),
    fc
      .tuple(fc.constantFrom('em', 'strong', 'del', 'code', 'kbd'), run)
      .map(([tag, text]) => `<${tag}>${escapeHtml(text)}</${tag}>`),
    fc
      .tuple(fc.constantFrom('em', 'strong'), letters)
      .map(([tag, text]) => `<${tag}><a href="/x/">${text}</a></${tag}>`),
    fc
      .tuple(fc.constantFrom('em', 'strong'), letters)
      .map(([tag, text]) => `<${tag}><code>${text}</code></${tag}>`),
    fc.constantFrom(
      '<br>',
      '<img src="a.png" alt="x">',
      '<a href="https://a.b/c">https://a.b/c</a>',
    ),
  );
  const block = fc
    .tuple(
      fc.constantFrom('p', 'h2', 'li', 'td', 'blockquote'),
      fc.array(segment, { minLength: 1, maxLength: 6 }),
    )
    .map(([tag, segments]) =>
      tag === 'li'
        ? `<ul><li>${segments.join('')}</li></ul>`
        : tag === 'td'
          ? `<table><tr><th>h</th></tr><tr><td>${segments.join('')}</td></tr></table>`
          : `<${tag}>${segments.join('')}</${tag}>`,
    );
  const pageUrl = 'https://docs.example/guide/';
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 3 }), (blocks) => {
      const html = `<!doctype html><html lang="ja"><head><title>T</title></head><body><main>${blocks.join('')}</main></body></html>`;
      const old = before(html, { pageUrl })?.markdown;
      const now = buildMarkdownFromHtml(html, { pageUrl })?.markdown;
      if (old !== now)
        console.log(
          `differs on ${JSON.stringify(blocks.join(''))}:\n  before ${JSON.stringify(old)}\n  after  ${JSON.stringify(now)}`,
        );
      return old === now;
    }),
    { numRuns: fuzzRuns },
  );
  console.log(`fuzz: ${fuzzRuns} generated pages, the same Markdown from both converters`);
}
