/**
 * The agent-index figures of a served build: pages in the sitemap, in llms.txt and in MCP resources;
 * the sitemap's pages that say they are not content (a meta refresh, `noindex`, a canonical naming
 * another page) and how many of them the index still lists; llms-full's size; search hits on the
 * site's own questions (the answering page in the top 3). The before/after tables of the real-site
 * fixtures (BENCHMARKS.md).
 *
 *   node bench/agent-index-figures.ts <origin> --site <site> --questions <module exporting an array> [--json]
 *
 * e.g. for tests/fixtures/astrowind served on port 4321:
 *   node bench/agent-index-figures.ts http://127.0.0.1:4321 --site https://astrowind.vercel.app --questions tests/integration/astrowind-questions.ts
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readAgentIndex, type SiteQuestion } from '../tests/helpers/agent-index.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    site: { type: 'string' },
    questions: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const origin = positionals[0];
if (!origin || !values.site || !values.questions) {
  console.error(
    'usage: node bench/agent-index-figures.ts <origin> --site <site> --questions <module> [--json]',
  );
  process.exit(2);
}
const module = (await import(pathToFileURL(resolve(values.questions)).href)) as Record<
  string,
  unknown
>;
const questions = Object.values(module).find(Array.isArray) as SiteQuestion[];
const figures = await readAgentIndex(
  origin.replace(/\/$/, ''),
  values.site.replace(/\/$/, ''),
  questions,
);
if (values.json) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  const count = (paths: string[]) =>
    `${paths.length}${paths.length > 0 && paths.length <= 12 ? ` (${paths.join(', ')})` : ''}`;
  console.log(`sitemap pages             ${figures.sitemapPages}`);
  console.log(`llms.txt pages            ${figures.llmsTxtPages.length}`);
  console.log(`MCP resources             ${figures.mcpResources.length}`);
  console.log(`marked stub               ${count(figures.marked.stub)}`);
  console.log(`marked noindex            ${count(figures.marked.noindex)}`);
  console.log(`marked canonical elsewhere ${count(figures.marked['canonical-elsewhere'])}`);
  console.log(`marked but indexed        ${count(figures.indexedMarked)}`);
  console.log(
    `llms-full                 ${figures.llmsFullCharacters.toLocaleString('en')} characters in ${figures.llmsFullFiles} file(s)`,
  );
  console.log(`marked in search results   ${count(figures.searchMarked)}`);
  console.log(`search hits (top 3)       ${figures.searchHits} of ${figures.searchRanks.length}`);
  for (const { query, page, rank, top } of figures.searchRanks)
    console.log(
      `  ${rank > 0 && rank <= 3 ? 'hit ' : 'miss'} ${rank || '-'}  ${query} → ${page}${rank === 1 ? '' : `   (top: ${top.slice(0, 3).join(', ')})`}`,
    );
}
