/**
 * `node bench/measure-twins.ts SITE_ROOT`: how faithful the agent surface of a built Starlight site
 * is to what its readers see (tests/helpers/reader-view.ts), as counts: pages in the manifest (what
 * search, llms.txt and MCP list) and copies set apart, error pages with a twin, Expressive Code blocks
 * whose twin is what the copy button copies, file trees kept, character references in the twins and
 * llms.txt, twins that give a last-updated date. SITE_ROOT is a built site (`dist/client`, `dist/agent-api`),
 * such as the copy of tests/fixtures/starlight-docs that its integration test builds.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import {
  compareCode,
  countCharacterReferences,
  keepsFileTree,
  parseMain,
  parseTwin,
  readFileTrees,
} from '../tests/helpers/reader-view.ts';

const root = process.argv[2];
if (!root) throw new Error('Usage: node bench/measure-twins.ts SITE_ROOT');
const clientDir = join(root, 'dist', 'client');
const manifest = JSON.parse(
  await readFile(join(root, 'dist', 'agent-api', 'manifest.json'), 'utf8'),
) as { pages: unknown[]; copies?: unknown[] };

const counts = {
  htmlPages: 0,
  twins: 0,
  errorTwins: 0,
  codeBlocks: 0,
  codeExact: 0,
  fileTrees: 0,
  fileTreesKept: 0,
  references: 0,
  dated: 0,
  pagesWithDate: 0,
};
for (const entry of await readdir(clientDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || entry.name !== 'index.html') continue;
  const folder = relative(clientDir, entry.parentPath).split(sep).join('/');
  if (folder.startsWith('_astro') || folder.startsWith('pagefind')) continue;
  counts.htmlPages++;
  const twin = await readFile(
    join(clientDir, folder === '' ? 'index.md' : `${folder}.md`),
    'utf8',
  ).catch(() => undefined);
  if (twin === undefined) continue;
  counts.twins++;
  if (/(^|\/)404$/.test(folder)) counts.errorTwins++;
  const html = await readFile(join(entry.parentPath, entry.name), 'utf8');
  const main = parseMain(html);
  if (!main) continue;
  const parsed = parseTwin(twin);
  const code = compareCode(main, parsed);
  counts.codeBlocks += code.blocks;
  counts.codeExact += code.exact;
  for (const tree of readFileTrees(main)) {
    counts.fileTrees++;
    if (keepsFileTree(parsed, tree)) counts.fileTreesKept++;
  }
  counts.references += countCharacterReferences(twin);
  if (/^last_(?:updated|modified): /m.test(twin)) counts.dated++;
  if (/<footer[\s\S]*?<time datetime=/.test(html)) counts.pagesWithDate++;
}
const llmsFiles = [
  'llms.txt',
  ...(await readdir(join(clientDir, 'llms')).catch(() => [])).map((name) => `llms/${name}`),
];
for (const file of llmsFiles)
  counts.references += countCharacterReferences(await readFile(join(clientDir, file), 'utf8'));

console.log(
  `| pages in the manifest | copies apart | error pages with a twin | code blocks as copied | file trees kept | character references | twins with a date (pages that show one) |`,
);
console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
console.log(
  `| ${manifest.pages.length} | ${manifest.copies?.length ?? 0} | ${counts.errorTwins} | ${counts.codeExact} of ${counts.codeBlocks} | ${counts.fileTreesKept} of ${counts.fileTrees} | ${counts.references} | ${counts.dated} (${counts.pagesWithDate}) |`,
);
