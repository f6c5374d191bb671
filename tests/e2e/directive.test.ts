/**
 * The llms.txt directive as a visitor's browser renders it: first in every page's <body>, where
 * agents read it, and nowhere a person sees it — no pixel, no room in the layout, no console error
 * (a Content-Security-Policy that refused its style would log one), and nothing for axe to report
 * about it, at desktop and phone sizes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { samplePages } from './support/site-pages.ts';
import { openTarget, readSitemap, type Target } from './support/target.ts';

let target: Target;
let browser: Browser;
let paths: string[];

before(async () => {
  target = await openTarget();
  browser = await launchBrowser();
  const sample = samplePages(await readSitemap(target));
  paths = [
    '/',
    ...(['service-city', 'guide'] as const).map((kind) => new URL(sample.get(kind)![0]!).pathname),
    '/desarrolladores/',
  ];
});
after(async () => {
  await browser?.close();
  await target?.close();
});

/** The boxes of the body's other elements, to compare with and without the directive. */
const layoutOf = (page: Page) =>
  page.evaluate(() =>
    [...document.body.querySelectorAll('*')]
      .filter((element) => !element.hasAttribute('data-agent-directive'))
      .slice(0, 400)
      .map((element) => {
        const box = element.getBoundingClientRect();
        return `${box.x},${box.y},${box.width},${box.height}`;
      }),
  );

for (const [device, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`the directive is first in each page's body and shows nothing to people (${device})`, {
    timeout: 120_000,
  }, async (t) => {
    const context = await browser.newContext({
      viewport,
      ...(device === 'phone' && { isMobile: true, hasTouch: true }),
    });
    for (const path of paths) {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const response = await page.goto(`${target.baseUrl}${path}`, { waitUntil: 'load' });
      assert.equal(response?.status(), 200, path);
      const directive = page.locator('body > [data-agent-directive]');
      assert.equal(await directive.count(), 1, `${path} has one directive`);
      const facts = await directive.evaluate((element) => {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return {
          first: element === document.body.firstElementChild,
          text: element.textContent,
          lang: element.getAttribute('lang'),
          display: style.display,
          position: style.position,
          clipPath: style.clipPath,
          overflow: style.overflow,
          width: box.width,
          height: box.height,
        };
      });
      assert.ok(facts.first, `${path}: the directive is the first element of <body>`);
      assert.match(
        facts.text ?? '',
        /^For AI agents: \/llms\.txt lists the pages of this site as Markdown\. This page as Markdown: \/\S*\.md\.$/,
        path,
      );
      assert.equal(facts.lang, 'en');
      // The visually hidden pattern applied: a refused style would leave the sentence in sight.
      assert.deepEqual(
        [facts.display, facts.position, facts.clipPath, facts.overflow],
        ['block', 'absolute', 'inset(50%)', 'hidden'],
        path,
      );
      assert.ok(
        facts.width <= 1 && facts.height <= 1,
        `${path}: a box of ${facts.width}×${facts.height}`,
      );

      // Not one pixel, and no room: the page looks and lays out the same without it.
      const pixels = await page.screenshot({ fullPage: false });
      const layout = await layoutOf(page);
      await directive.evaluate((element) => element.remove());
      assert.ok(
        pixels.equals(await page.screenshot({ fullPage: false })),
        `${path}: the viewport renders the same without the directive`,
      );
      assert.deepEqual(
        await layoutOf(page),
        layout,
        `${path}: no element moves without the directive`,
      );
      assert.deepEqual(errors, [], `${path}: no console error (a refused style logs one)`);
      await page.close();
    }
    await context.close();
    t.diagnostic(`${paths.join(', ')}: directive first in <body>, invisible, no layout`);
  });
}

test('axe reports nothing about the directive, of any impact', { timeout: 60_000 }, async (t) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${target.baseUrl}/`, { waitUntil: 'load' });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const aboutDirective = results.violations.flatMap((violation) =>
    violation.nodes
      .filter((node) => node.html.includes('data-agent-directive'))
      .map((node) => `${violation.impact} ${violation.id}: ${node.html}`),
  );
  assert.deepEqual(aboutDirective, []);
  t.diagnostic(`${results.violations.length} violations on the page, none about the directive`);
  await context.close();
});
