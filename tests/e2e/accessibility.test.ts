import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { samplePages, type PageKind } from './support/site-pages.ts';
import { openTarget, readSitemap, type Target } from './support/target.ts';

let target: Target;
let browser: Browser;
let pick: (kind: PageKind) => string;

before(async () => {
  target = await openTarget();
  browser = await launchBrowser();
  const sample = samplePages(await readSitemap(target));
  pick = (kind) => {
    const url = sample.get(kind)?.[0];
    assert.ok(url, `the sitemap has no ${kind} page`);
    return new URL(url).pathname;
  };
});
after(async () => {
  await browser?.close();
  await target?.close();
});

/** Impacts that fail the scan; moderate and minor ones are printed but do not fail it. */
const BLOCKING = new Set(['serious', 'critical']);

const pages = (): [name: string, path: string][] => [
  ['home page', '/'],
  ['service page', pick('service')],
  ['service-city page', pick('service-city')],
  ['city page', pick('city')],
  ['guide', pick('guide')],
  ['prices', '/precios/'],
  ['developers', '/desarrolladores/'],
  ['search with results', '/buscar/?q=fontanero'],
];

/** Scans each page in a fresh tab of `context`; prints every violation, fails on serious or critical ones. */
async function scan(
  t: TestContext,
  context: BrowserContext,
  list: [name: string, path: string][],
): Promise<void> {
  const report: string[] = [];
  let blocking = 0;
  for (const [name, path] of list) {
    const page = await context.newPage();
    const response = await page.goto(`${target.baseUrl}${path}`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200, `${path} answers ${response?.status()}`);
    // Scan the search page once Pagefind UI has drawn its results, as a visitor sees it.
    if (path.startsWith('/buscar/'))
      await page.locator('.pagefind-ui__result').first().waitFor({ timeout: 15_000 });
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    for (const violation of results.violations) {
      const fails = BLOCKING.has(violation.impact ?? '');
      if (fails) blocking++;
      report.push(
        `${fails ? '✖' : '·'} ${name} ${path} — ${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.length} elements) ${violation.helpUrl}`,
        ...violation.nodes
          .slice(0, 3)
          .map(
            (node) =>
              `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1, 2).join(' ').trim()}`,
          ),
      );
    }
    const review = results.incomplete.map((item) => item.id);
    t.diagnostic(
      `${name} ${path}: ${results.passes.length} rules pass, ${results.violations.length} violated, ${review.length} need review${review.length ? ` (${review.join(', ')})` : ''}`,
    );
    await page.close();
  }
  for (const line of report) t.diagnostic(line);
  assert.equal(
    blocking,
    0,
    `${blocking} serious or critical accessibility violations:\n${report.filter((line) => !line.startsWith('·')).join('\n')}`,
  );
}

test('pages pass an axe scan with no serious or critical violations (desktop)', {
  timeout: 120_000,
}, async (t) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await scan(t, context, pages());
  await context.close();
});

test('the home page and a service-city page pass the axe scan on a phone', {
  timeout: 60_000,
}, async (t) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await scan(t, context, [
    ['home page', '/'],
    ['service-city page', pick('service-city')],
  ]);
  await context.close();
});
