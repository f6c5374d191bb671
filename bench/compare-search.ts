/**
 * `node bench/compare-search.ts BEFORE_ROOT [--biome [GIT_DIR] | --outdir OUTDIR] [--queries N]`: the
 * server search of another checkout (BEFORE_ROOT, e.g. `git archive <commit> | tar -x -C /tmp/before`)
 * against this one's, on the same pages in one process: Starlight's documentation (the vendored
 * fixture, 17 languages), with `--biome` Biome's (biomejs/website's `src/content/docs`, read from
 * GIT_DIR, by default the fetched repository), with `--outdir` the pages of a build (the demo's:
 * `tests/.build/dist`; the site's vocabulary is not used). For each: the index's bytes, its build's CPU time (median of three
 * builds, alternating), and N queries (default 3,000) each asked once of each engine, alternating, with
 * p50 and p99 of each. The queries are nobody's choice: 1 to 4 words of a page's text as written
 * (identifiers and their case kept), or 2 to 6 characters of its Japanese or Chinese text.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { SearchEngine } from '../packages/astro-agent-api/src/content/search.ts';
import { createMemorySearch, type MemoryPage } from '../tests/helpers/memory-search.ts';
import { createRandom } from './site-generator/barrio-text.ts';
import { createContentModel } from '../packages/astro-agent-api/src/content/content-model.ts';
import { createNodeBuildFiles } from '../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { readDocsPages, type DocsLayout, type DocsPage } from './starlight-docs-pages.ts';

const { values, positionals } = parseArgs({
  options: {
    biome: { type: 'boolean', default: false },
    outdir: { type: 'string' },
    queries: { type: 'string', default: '3000' },
  },
  allowPositionals: true,
});
const [beforeRoot, gitDir = '/work/.mirror/biomejs+website/repo'] = positionals;
if (!beforeRoot)
  throw new Error(
    'Usage: node bench/compare-search.ts BEFORE_ROOT [--biome [GIT_DIR]] [--queries N]',
  );
const before = (await import(
  pathToFileURL(join(resolve(beforeRoot), 'tests/helpers/memory-search.ts')).href
)) as { createMemorySearch: typeof createMemorySearch };

const BIOME_DOCS: DocsLayout = {
  prefix: 'src/content/docs/',
  locales: Object.fromEntries(
    ['es', 'fr', 'ja', 'pl', 'pt-BR', 'ru', 'uk', 'zh-CN'].map((folder) => [folder, folder]),
  ),
};
async function readBuiltPages(outDir: string): Promise<DocsPage[]> {
  const model = createContentModel({ files: createNodeBuildFiles(outDir) });
  const { manifest, texts } = await model.current();
  const built = manifest.pages.map((page) => ({
    language: page.language,
    path: page.path,
    title: page.title,
    text: texts.readMarkdown(page.twin),
  }));
  model.close();
  return built;
}
const pages = values.outdir
  ? await readBuiltPages(values.outdir)
  : values.biome
    ? await readDocsPages('', gitDir, BIOME_DOCS)
    : await readDocsPages('tests/fixtures/starlight-docs/src/content/docs');
const counts = new Map<string, number>();
for (const page of pages) counts.set(page.language, (counts.get(page.language) ?? 0) + 1);
// The site's language first: English where it has English pages.
const languages = [...counts.keys()].sort((a, b) => Number(b === 'en') - Number(a === 'en'));
const memoryPages: MemoryPage[] = pages.map(({ language, text, path, title }) => ({
  language,
  text,
  path,
  title,
}));

const median = (list: number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)]!;
const engines: Record<
  'before' | 'after',
  { engine?: SearchEngine; indexBytes: number; buildCpuMs: number[] }
> = {
  before: { indexBytes: 0, buildCpuMs: [] },
  after: { indexBytes: 0, buildCpuMs: [] },
};
for (let round = 0; round < 3; round++) {
  for (const [name, create] of [
    ['before', before.createMemorySearch],
    ['after', createMemorySearch],
  ] as const) {
    const start = process.cpuUsage();
    const { engine, indexBytes } = await create(languages, memoryPages);
    const used = process.cpuUsage(start);
    Object.assign(engines[name], { engine, indexBytes });
    engines[name].buildCpuMs.push((used.user + used.system) / 1000);
  }
}

const random = createRandom(11);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const CJK_RUNS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]{2,}/gu;
const queries = new Set<string>();
for (
  let attempt = 0;
  queries.size < Number(values.queries) && attempt < Number(values.queries) * 20;
  attempt++
) {
  const page = pick(pages);
  const text = page.text.slice(0, 6000);
  const runs = ['ja', 'zh-CN'].includes(page.language)
    ? [...text.matchAll(CJK_RUNS)].map((match) => match[0])
    : [];
  if (runs.length > 0 && random() < 0.7) {
    const run = pick(runs);
    const length = Math.min(run.length, 2 + Math.floor(random() * 5));
    const start = Math.floor(random() * (run.length - length + 1));
    queries.add(run.slice(start, start + length));
    continue;
  }
  const words = text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word.length > 0);
  if (words.length < 4) continue;
  const length = 1 + Math.floor(random() * 4);
  const start = Math.floor(random() * (words.length - length));
  const query = words.slice(start, start + length).join(' ');
  if (query.length >= 2) queries.add(query);
}

const times: Record<'before' | 'after', number[]> = { before: [], after: [] };
for (const query of queries) {
  for (const name of ['before', 'after'] as const) {
    const start = performance.now();
    engines[name].engine!.search({ query, filters: {}, limit: 8 });
    times[name].push(performance.now() - start);
  }
}
const percentile = (list: number[], share: number) =>
  Number(
    [...list]
      .sort((a, b) => a - b)
      [Math.min(list.length - 1, Math.floor(share * list.length))]!.toFixed(3),
  );
process.stdout.write(
  `${values.outdir ?? (values.biome ? "Biome's documentation" : "Starlight's documentation")}: ${pages.length} pages, ${languages.length} languages, ${queries.size} queries each asked once\n`,
);
for (const name of ['before', 'after'] as const) {
  const { indexBytes, buildCpuMs } = engines[name];
  process.stdout.write(
    `${JSON.stringify({ engine: name, indexBytes, buildCpuMs: Math.round(median(buildCpuMs)), p50Ms: percentile(times[name], 0.5), p99Ms: percentile(times[name], 0.99) })}\n`,
  );
}
