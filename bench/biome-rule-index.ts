/**
 * `node bench/biome-rule-index.ts [BEFORE_SRC] [--git GIT_DIR] [--page PATH]`: Biome's rule index
 * (biomejs/website's `src/content/docs/linter/javascript/rules.mdx`, read from GIT_DIR, by default the
 * fetched repository) as Starlight renders it — its Markdown tables as HTML tables, each `<Icon label>`
 * as Starlight's `<svg aria-label>` inside Biome's titled `<span class="inline-icon">` — converted to
 * its twin by this checkout's converter and, when given, by another checkout's `src` (BEFORE_SRC, e.g.
 * `git archive <commit> packages/astro-agent-api/src | tar -x -C /tmp/before`). Prints each twin's
 * bytes, the characters of padding in its table rows (runs of spaces past the first, delimiter dashes
 * past three), and how many of the icons' names ("This rule is recommended", "safe fix", "unsafe fix")
 * it says. The page is rebuilt from its source, not built by Astro: a real-site build gives the same
 * markup (tests build Biome's website as a fixture).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildMarkdownFromHtml } from '../packages/astro-agent-api/src/build/html-to-markdown.ts';

const { values, positionals } = parseArgs({
  options: {
    git: { type: 'string', default: '/work/.mirror/biomejs+website/repo' },
    page: { type: 'string', default: 'src/content/docs/linter/javascript/rules.mdx' },
  },
  allowPositionals: true,
});
const mdx = execFileSync('git', ['-C', values.git, 'show', `HEAD:${values.page}`], {
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});

/** `@astrojs/starlight` 0.41's `<Icon>` with a label. */
const icon = (label: string) =>
  `<svg aria-label="${label}" class="astro-c6vsoqas" width="16" height="16" viewBox="0 0 24 24" fill="currentColor" style="--sl-icon-size: 1.2rem;"><path d="M12 2a10 10 0 1 0 0 20"></path></svg>`;
/** The inline Markdown and MDX of a line as HTML: icons, code, links, strong. */
const inline = (text: string) =>
  text
    .replace(
      /<Icon name="[^"]*"(?: size="[^"]*")? label="([^"]*)"(?: size="[^"]*")? \/>/g,
      (_, label: string) => icon(label),
    )
    .replace(
      /<span class='inline-icon' title="([^"]*)" ?>/g,
      '<span class="inline-icon" title="$1">',
    )
    .replace(/`([^`]*)`/g, (_, code: string) => `<code>${code.replaceAll('<', '&lt;')}</code>`)
    .replace(/\[([^\]]*)\]\(([^)]*)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]*)\*\*/g, '<strong>$1</strong>');

let html = '';
let inTable = false;
const body = mdx.replace(/^---\n[\s\S]*?\n---\n/, '');
for (const line of body.split('\n')) {
  if (line.startsWith('|')) {
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    html += inTable
      ? `<tr>${cells.map((cell) => `<td>${inline(cell)}</td>`).join('')}</tr>`
      : `<table><thead><tr>${cells.map((cell) => `<th>${inline(cell)}</th>`).join('')}</tr></thead><tbody>`;
    inTable = true;
    continue;
  }
  if (inTable) html += '</tbody></table>';
  inTable = false;
  const heading = /^(#{2,3}) (.*)$/.exec(line);
  if (heading) html += `<h${heading[1]!.length}>${inline(heading[2]!)}</h${heading[1]!.length}>`;
  else if (line.startsWith('- ')) html += `<ul><li>${inline(line.slice(2))}</li></ul>`;
  else if (line.trim() !== '' && !line.startsWith('import ')) html += `<p>${inline(line)}</p>`;
}
if (inTable) html += '</tbody></table>';
const page = `<!doctype html><html lang="en"><head><title>JavaScript Rules</title></head><body><main>${html}</main></body></html>`;

const converters: [string, typeof buildMarkdownFromHtml][] = [
  ['this checkout', buildMarkdownFromHtml],
];
if (positionals[0]) {
  const before = (await import(
    pathToFileURL(join(resolve(positionals[0]), 'build', 'html-to-markdown.ts')).href
  )) as { buildMarkdownFromHtml: typeof buildMarkdownFromHtml };
  converters.unshift([positionals[0], before.buildMarkdownFromHtml]);
}
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
process.stdout.write(`${values.page}: ${Buffer.byteLength(page)} bytes of HTML\n`);
for (const [name, convert] of converters) {
  const markdown = convert(page, {
    pageUrl: 'https://biomejs.dev/linter/javascript/rules/',
  })!.markdown;
  const rows = markdown.split('\n').filter((line) => line.startsWith('|'));
  const padding = rows.reduce(
    (sum, row) =>
      sum +
      [...row.matchAll(/ {2,}|-{4,}/g)].reduce(
        (run, [match]) => run + match.length - (match.startsWith(' ') ? 1 : 3),
        0,
      ),
    0,
  );
  process.stdout.write(
    `${JSON.stringify({
      converter: name,
      twinBytes: Buffer.byteLength(markdown),
      tableRows: rows.length,
      paddingCharacters: padding,
      paddingShare: Number((padding / markdown.length).toFixed(3)),
      recommended: count(markdown, /This rule is recommended/g),
      safeFix: count(markdown, /The rule has a safe fix/g),
      unsafeFix: count(markdown, /The rule has an unsafe fix/g),
    })}\n`,
  );
}
