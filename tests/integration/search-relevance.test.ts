import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createContentModel,
  type ContentSnapshot,
} from '../../packages/astro-agent-api/src/content/content-model.ts';
import { createNodeBuildFiles } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { buildSite } from '../helpers/build-site.ts';
import { isHit, RELEVANCE_CASES } from './search-relevance-cases.ts';

/**
 * The demo's search, built by the real build (server index and the demo's vocabulary from its
 * options) and loaded as the server loads it: each case's page in the top 3 of search_pages, or first.
 */
let snapshot: ContentSnapshot;
const outcomes: { query: string; hit: boolean; got: string[] }[] = [];

before(async () => {
  const { outDir } = await buildSite();
  snapshot = await createContentModel({ files: createNodeBuildFiles(outDir) }).current();
});

after(() => {
  const hits = outcomes.filter((o) => o.hit).length;
  const misses = outcomes.filter((o) => !o.hit).map((o) => `  ${o.query} → ${o.got.join(', ')}`);
  // The hit rate is the figure the issue asks for; print it with the misses for tuning.
  process.stdout.write(
    `search relevance: ${hits}/${outcomes.length} in the top 3 (or first where asked)\n${misses.join('\n')}\n`,
  );
});

test('the suite covers every kind of query with at least 80 cases', () => {
  assert.ok(RELEVANCE_CASES.length >= 80, `${RELEVANCE_CASES.length} cases`);
  const kinds = new Set(RELEVANCE_CASES.map((relevance) => relevance.kind));
  assert.equal(kinds.size, 7);
});

for (const relevance of RELEVANCE_CASES) {
  const label = `${relevance.kind}: ${relevance.query}${relevance.city ? ` (city=${relevance.city})` : ''} → ${relevance.expect.join(' | ')}${relevance.first ? ' first' : ' in the top 3'}`;
  test(label, () => {
    const output = snapshot.search.search({
      query: relevance.query,
      filters: relevance.city ? { city: relevance.city } : {},
      limit: 3,
    });
    const got = output.results.map((result) => new URL(result.url).pathname);
    const hit = isHit(relevance, got);
    outcomes.push({ query: relevance.query, hit, got });
    assert.ok(hit, `got ${got.join(', ') || 'nothing'}`);
  });
}
