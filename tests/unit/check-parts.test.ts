/**
 * The parts of the grader (astro-agent-api-check) that read what a site sends: the README's table of checks is
 * the catalog, and the parsers of Link headers, directives and sampling hold for generated input.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CHECK_IDS, CHECKS } from '../../packages/astro-agent-api-check/src/check-catalog.ts';
import { parseCheckOptions } from '../../packages/astro-agent-api-check/src/check-options.ts';
import { parseLinkHeader } from '../../packages/astro-agent-api-check/src/link-header.ts';
import { measureCoverage } from '../../packages/astro-agent-api-check/src/llms-txt-checks.ts';
import { findHtmlDirective } from '../../packages/astro-agent-api-check/src/markdown-checks.ts';
import {
  marksOf,
  pageKey,
  type ReadPage,
} from '../../packages/astro-agent-api-check/src/page-marks.ts';
import { gradeCaching } from '../../packages/astro-agent-api-check/src/page-checks.ts';
import { contentSignalProblems } from '../../packages/astro-agent-api-check/src/robots-checks.ts';
import { samplePages } from '../../packages/astro-agent-api-check/src/sample-pages.ts';
import { SiteHttp } from '../../packages/astro-agent-api-check/src/site-http.ts';

const README = new URL('../../packages/astro-agent-api-check/README.md', import.meta.url);

describe('the catalog of checks', () => {
  test('is the README table: same ids in the same order, groups, graders and fixes', async () => {
    const readme = await readFile(README, 'utf8');
    const table = readme.slice(
      readme.indexOf('## The checks'),
      readme.indexOf('## The JSON report'),
    );
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const cells = rows.map((row) =>
      row
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((cell) => cell.replace(/\\\|/g, '|')),
    );
    assert.deepEqual(
      cells.map(([id]) => id!.replace(/`/g, '')),
      CHECK_IDS,
    );
    for (const [id, group, title, graders, fix] of cells) {
      const check = CHECKS[id!.replace(/`/g, '') as keyof typeof CHECKS];
      assert.equal(group, `${check.group}${check.scope === 'api' ? ' (API)' : ''}`, id);
      assert.equal(title, check.title, id);
      assert.equal(graders, check.graders.join(', ') || '—', id);
      assert.equal(fix, check.fix, id);
    }
  });

  test('--only and --skip take ids and groups, and name the valid ones for a mistake', () => {
    assert.deepEqual(parseCheckOptions({ url: 'https://example.com', only: 'mcp' }).only, [
      'mcp-2025',
      'mcp-2026',
      'mcp-transport',
    ]);
    assert.throws(
      () => parseCheckOptions({ url: 'https://example.com', skip: 'robots,nope' }),
      /"nope" is neither a check id nor a group\. Groups: site, robots/,
    );
    assert.throws(
      () => parseCheckOptions({ url: 'ftp://example.com' }),
      /must be an http:\/\/ or https:\/\/ address/,
    );
    assert.equal(parseCheckOptions({ url: 'https://example.com', delay: '2s' }).delay, 2000);
  });
});

describe('parsers of what a site sends', () => {
  const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
  const url = fc.webUrl({ withQueryParameters: true }).filter((value) => !/[<>,;"\s]/.test(value));

  test('Link headers (RFC 8288): every link written is read back, with its relations and type', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            url,
            rel: fc.array(token, { minLength: 1, maxLength: 3 }),
            type: fc.option(fc.constantFrom('text/markdown', 'application/json')),
          }),
          { maxLength: 6 },
        ),
        (links) => {
          const header = links
            .map(
              (link) =>
                `<${link.url}>; rel="${link.rel.join(' ')}"${link.type ? `; type="${link.type}"` : ''}`,
            )
            .join(', ');
          const parsed = parseLinkHeader(header || null);
          assert.deepEqual(
            parsed,
            links.map((link) => ({ url: link.url, rel: link.rel, type: link.type ?? undefined })),
          );
        },
      ),
    );
  });

  test('Content-Signal: yes/no values of the three signals read clean, anything else is named', () => {
    fc.assert(
      fc.property(
        fc.subarray(['search', 'ai-input', 'ai-train'], { minLength: 1 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (names, values) => {
          assert.deepEqual(
            contentSignalProblems(
              names.map((name, i) => `${name}=${values[i] ? 'yes' : 'no'}`).join(', '),
            ),
            [],
          );
        },
      ),
    );
    assert.deepEqual(contentSignalProblems('search=maybe, ai-bake=yes'), [
      '"search=maybe": the value must be yes or no',
      'unknown signal "ai-bake=yes" (known: search, ai-input, ai-train, use)',
    ]);
    assert.deepEqual(contentSignalProblems('search=yes, use=reference'), []);
    assert.deepEqual(contentSignalProblems('use=all'), [
      '"use=all": use must be immediate, reference, full',
    ]);
  });

  test('the HTML directive: found near the top when visually hidden, not when display:none or hidden', () => {
    const page = (directive: string) =>
      `<!doctype html><html><head><link rel="alternate" href="/llms.txt"></head><body>${directive}<main>${'<p>text</p>'.repeat(200)}</main></body></html>`;
    const hiddenVisually =
      '<div style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">For AI agents: <a href="/llms.txt">/llms.txt</a></div>';
    assert.ok(findHtmlDirective(page(hiddenVisually))! < 0.1);
    assert.equal(
      findHtmlDirective(page('<div style="display: none">See /llms.txt</div>')),
      undefined,
    );
    assert.equal(findHtmlDirective(page('<p hidden>See /llms.txt</p>')), undefined);
    assert.equal(findHtmlDirective(page('<nav><a href="/llms.txt">llms</a></nav>')), undefined);
    assert.equal(findHtmlDirective(page('')), undefined, 'the <head> does not count');
  });

  test('cache hygiene grades as AFDocs does', () => {
    const grade = (headers: Record<string, string>) => gradeCaching(new Headers(headers));
    assert.equal(grade({ 'cache-control': 'public, max-age=300' }), 'pass');
    assert.equal(
      grade({ 'cache-control': 'public, max-age=0, must-revalidate', etag: '"x"' }),
      'pass',
    );
    assert.equal(grade({ 'cache-control': 'max-age=7200' }), 'warn');
    assert.equal(grade({ 'cache-control': 'max-age=604800' }), 'fail');
    assert.equal(grade({}), 'fail');
  });

  test('deterministic sampling: the same pages every run, the home page first, spread over the list, at most max-pages', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (ids, maxPages) => {
          const home = 'https://h.example/';
          const pages = [home, ...ids.map((id) => `https://h.example/p/${id}/`)];
          const shuffled = [...pages].reverse();
          const sample = samplePages(pages, home, { sampling: 'deterministic', maxPages });
          assert.deepEqual(
            samplePages(shuffled, home, { sampling: 'deterministic', maxPages }),
            sample,
          );
          assert.equal(sample[0], home);
          assert.ok(sample.length <= Math.max(maxPages, 1));
          assert.equal(new Set(sample).size, sample.length);
          if (pages.length > maxPages && maxPages >= 3)
            assert.ok(
              sample.includes(
                [...pages]
                  .sort()
                  .filter((page) => page !== home)
                  .at(-1)!,
              ),
              'the last page is sampled',
            );
        },
      ),
    );
  });

  test("llms.txt's coverage counts the content pages read: a page not read, or one that says it is not content, is no miss", () => {
    const site = fc.array(fc.record({ content: fc.boolean(), listed: fc.boolean() }), {
      minLength: 1,
      maxLength: 60,
    });
    fc.assert(
      fc.property(site, fc.integer({ min: 1, max: 20 }), (kinds, maxPages) => {
        const pages = kinds.map((_, i) => `https://h.example/p${String(i).padStart(2, '0')}/`);
        const stub = { kind: 'redirect' as const, detail: 'a redirect stub' };
        const read: ReadPage[] = samplePages(pages, pages[0]!, {
          sampling: 'deterministic',
          maxPages,
        }).map((page) => ({
          page,
          marks: kinds[pages.indexOf(page)]!.content ? [] : [stub],
          title: '',
        }));
        const listed = new Set(pages.filter((_, i) => kinds[i]!.listed).map(pageKey));
        const coverage = measureCoverage(pages, read, listed, pageKey);
        const contentRead = read.filter((page) => page.marks.length === 0);
        assert.equal(coverage.read, read.length);
        assert.equal(coverage.whole, read.length === pages.length);
        assert.deepEqual(
          [coverage.content, coverage.notContent],
          [contentRead.length, read.length - contentRead.length],
        );
        assert.deepEqual(
          coverage.missing,
          contentRead.filter((page) => !listed.has(pageKey(page.page))).map((page) => page.page),
        );
        if (coverage.whole)
          assert.equal(
            coverage.content - coverage.missing.length,
            kinds.filter((kind) => kind.content && kind.listed).length,
          );
      }),
    );
    // Listed content pages among many unlisted stubs, few of them read: every content page is covered; the home page, read though the sitemap does not list it, is not counted.
    const pages = Array.from(
      { length: 1000 },
      (_, i) => `https://h.example/p${String(i).padStart(4, '0')}/`,
    );
    const stubsAndPages = pages
      .filter((_, i) => i % 50 === 0)
      .map((page, i) => ({
        page,
        marks: i % 5 === 0 ? [] : [{ kind: 'redirect' as const, detail: '' }],
        title: '',
      }));
    const read = [{ page: 'https://h.example/', marks: [], title: '' }, ...stubsAndPages];
    const listed = new Set(
      stubsAndPages.filter((page) => page.marks.length === 0).map((page) => pageKey(page.page)),
    );
    assert.deepEqual(measureCoverage(pages, read, listed, pageKey), {
      read: 20,
      whole: false,
      notContent: 16,
      content: 4,
      missing: [],
    });
  });

  test('what a page says of itself: a stub, noindex, a canonical elsewhere, a copy, nothing to read; a content page says nothing', () => {
    const http = new SiteHttp(new URL('http://127.0.0.1:4321'), {
      concurrency: 1,
      delayMs: 0,
      timeoutMs: 1000,
      userAgent: 'test',
    });
    http.mapOrigin('https://h.example');
    const page = 'https://h.example/guide/';
    const text = 'Words an agent reads about the guide, enough of them to be a page of its own.';
    const kinds = (
      head: string,
      body = `<main><h1>Guide</h1><p>${text}</p></main>`,
      headers: Record<string, string> = {},
      lang = 'en',
    ) =>
      marksOf(
        {
          url: page,
          status: 200,
          headers: new Headers({ 'content-type': 'text/html; charset=utf-8', ...headers }),
          text: `<!doctype html><html lang="${lang}"><head>${head}</head><body>${body}</body></html>`,
          bytes: 0,
          ms: 0,
        },
        page,
        http,
      ).marks.map((mark) => mark.kind);
    assert.deepEqual(
      kinds('<link rel="canonical" href="https://h.example/guide">'),
      [],
      'the same page, without its slash, is itself',
    );
    assert.deepEqual(
      kinds(
        '<meta http-equiv="refresh" content="0;url=/new/"><meta name="robots" content="noindex">',
        '<a href="/new/">Redirecting</a>',
      ),
      ['redirect', 'noindex'],
    );
    assert.deepEqual(kinds('<meta name="ROBOTS" content="noindex, follow">'), ['noindex']);
    assert.deepEqual(kinds('', undefined, { 'x-robots-tag': 'none' }), ['noindex']);
    assert.deepEqual(kinds('<link rel="canonical" href="https://other.example/guide/">'), [
      'canonical',
    ]);
    assert.deepEqual(kinds('<link rel="canonical" href="/guide/v2/">'), ['canonical']);
    assert.deepEqual(kinds('', `<main lang="en"><p>${text}</p></main>`, {}, 'da'), ['copy']);
    assert.deepEqual(
      kinds(
        '',
        '<nav>Home · Docs · Blog · About · Contact · Pricing · Careers</nav><main>© 2026 Example</main><footer>All rights reserved, every one of them</footer>',
      ),
      ['empty'],
    );
    assert.deepEqual(
      kinds(
        '',
        '<main><p>検索エンジンとエージェントが読むページの本文はここにあります。</p></main>',
        {},
        'ja',
      ),
      [],
      'words counted in a script without spaces',
    );
  });
});
