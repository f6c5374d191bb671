/**
 * Whether a large site's runtime files fit Cloudflare Workers' limit of 25 MiB per static asset: the
 * manifest, the search index and the pages' text of an N-page site (the benchmark's generated pages:
 * bench/site-generator/barrio-text.ts, the demo's facets and options) written by the build's own steps,
 * without an Astro build. The Worker reads all three through its assets binding (hosts/workers/workers-build-files.ts).
 * Usage: node bench/workers-asset-sizes.ts [pages=10000]
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  buildManifest,
  writeManifest,
} from '../packages/astro-agent-api/src/build/write-manifest.ts';
import { RUNTIME_DIR } from '../packages/astro-agent-api/src/content/manifest.ts';
import { buildLargeManifest } from '../tests/helpers/large-manifest.ts';
import { cities, services } from '../src/data/company.ts';
import { buildBarrioText } from './site-generator/barrio-text.ts';

const pageCount = Number(process.argv[2] ?? 10_000);
const LIMIT = 25 * 1024 ** 2;
const source = buildLargeManifest(pageCount);
const pairs = services.flatMap((service) => cities.map((city) => ({ service, city })));
// Each generated page with the text the generated site's page carries: five paragraphs, two headings, tips.
const pages = source.pages.map((page, i) => {
  const { service, city } = pairs[i % pairs.length]!;
  const text = buildBarrioText({ service, city }, Math.floor(i / pairs.length), i + 1);
  const markdown = [
    `# ${text.title}`,
    text.description,
    ...text.paragraphs.slice(0, 2),
    `## Trabajos en ${text.name}`,
    ...text.paragraphs.slice(2),
    '## Consejos antes de llamar',
    text.tips.map((tip) => `- ${tip}.`).join('\n'),
  ].join('\n\n');
  return {
    ...page,
    lang: 'es',
    textHash: String(i),
    documentTitle: text.title,
    markdown: `${markdown}\n`,
    frontMatter: `---\ntitle: ${text.title}\nurl: ${page.url}\n---\n\n`,
  };
});
const manifest = buildManifest({ site: source.site, options: source.options, pages });
const outDir = await mkdtemp(join(tmpdir(), 'agent-api-worker-assets-'));
try {
  await writeServerIndex(outDir, await buildServerIndexOfManifest(manifest));
  await writeManifest(outDir, manifest);
  console.log(`| file (${pageCount} pages) | bytes | MiB | under 25 MiB |`);
  console.log('| --- | --- | --- | --- |');
  for (const name of (await readdir(join(outDir, RUNTIME_DIR))).sort()) {
    const { size } = await stat(join(outDir, RUNTIME_DIR, name));
    console.log(
      `| ${name} | ${size} | ${(size / 1024 ** 2).toFixed(1)} | ${size < LIMIT ? 'yes' : '**no**'} |`,
    );
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}
