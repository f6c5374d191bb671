/**
 * The Markdown step (build/build-markdown.ts) converts the pages it has to in worker threads once they
 * hold WORKER_THRESHOLD_BYTES of HTML, whatever their count (a few hundred large pages of a
 * documentation theme, left over by the render), and the twins are the same as on the calling thread.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  WORKER_THRESHOLD_BYTES,
  writeMarkdownTwins,
} from '../../packages/astro-agent-api/src/build/build-markdown.ts';
import type { MarkdownConversionOptions } from '../../packages/astro-agent-api/src/build/converted-page.ts';
import { openPageCache } from '../../packages/astro-agent-api/src/build/page-cache.ts';
import { parseAgentApiOptions } from '../../packages/astro-agent-api/src/options.ts';
import { DEFAULT_ROUTING } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

const SITE = 'https://large-pages.example';
const OPTIONS: MarkdownConversionOptions = {
  ...parseAgentApiOptions({}),
  site: SITE,
  routing: DEFAULT_ROUTING,
  facetNames: [],
};
/** Pages of about 35 KB: 150 of them hold more than the threshold, at a count far below the 1,000 pages the step once waited for. */
const PAGE_COUNT = 150;

function largePage(at: number): string {
  const paragraphs = Array.from(
    { length: 300 },
    (_, line) =>
      `<p>Paragraph ${line} of page ${at}: <code>npm run build</code> writes <em>every</em> page, line ${line}.</p>`,
  ).join('\n');
  const navigation = `<nav>${Array.from({ length: 200 }, (_, link) => `<a href="/p${link}/">Page ${link}</a>`).join('')}</nav>`;
  return `<!doctype html><html lang="en"><head><title>Page ${at}</title></head><body>${navigation}<main><h1>Page ${at}</h1>\n${paragraphs}\n<pre><code>one\n\ntwo</code></pre></main></body></html>`;
}

let work: string;
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'markdown-step-workers-'));
});
after(() => rm(work, { recursive: true, force: true }));

async function writeSite(name: string): Promise<string> {
  const clientDir = join(work, name);
  for (let at = 0; at < PAGE_COUNT; at++) {
    await mkdir(join(clientDir, `p${at}`), { recursive: true });
    await writeFile(join(clientDir, `p${at}`, 'index.html'), largePage(at));
  }
  return clientDir;
}

test('a hundred and fifty pages of 35 KB are converted in worker threads, to the same twins as on the calling thread', async () => {
  const bytes = Array.from({ length: PAGE_COUNT }, (_, at) =>
    Buffer.byteLength(largePage(at)),
  ).reduce((sum, size) => sum + size, 0);
  assert.ok(bytes >= WORKER_THRESHOLD_BYTES, `the pages hold ${bytes} bytes, above the threshold`);
  let asked: { pages: number; bytes: number } | undefined;
  const inWorkers = await writeSite('workers');
  const threaded = await writeMarkdownTwins(inWorkers, OPTIONS, {
    cache: await openPageCache(join(work, 'cache-workers'), OPTIONS),
    workers: (pages, htmlBytes) => {
      asked = { pages, bytes: htmlBytes };
      return 2;
    },
  });
  assert.deepEqual(
    asked,
    { pages: PAGE_COUNT, bytes },
    'the step counts the bytes of the pages it has to convert',
  );
  const onThread = await writeSite('thread');
  const single = await writeMarkdownTwins(onThread, OPTIONS, {
    cache: await openPageCache(join(work, 'cache-thread'), OPTIONS),
    workers: () => 0,
  });
  assert.equal(threaded.converted, PAGE_COUNT);
  assert.deepEqual(threaded.pages, single.pages);
  for (let at = 0; at < PAGE_COUNT; at++) {
    const twin = await readFile(join(inWorkers, `p${at}.md`), 'utf8').catch(() =>
      readFile(join(inWorkers, `p${at}`, 'index.md'), 'utf8'),
    );
    const same = await readFile(join(onThread, `p${at}.md`), 'utf8').catch(() =>
      readFile(join(onThread, `p${at}`, 'index.md'), 'utf8'),
    );
    assert.equal(twin, same, `the twin of /p${at}/`);
    assert.match(twin, /one\n\ntwo/, 'code keeps its blank line');
  }
});
