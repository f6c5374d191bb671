import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, watchProblems } from './support/browser.ts';
import { openTarget, type Target } from './support/target.ts';

/** Test artifacts, not committed (`test-results/` is in .gitignore). */
const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

let target: Target;
let browser: Browser;

before(async () => {
  target = await openTarget();
  browser = await launchBrowser();
  await mkdir(SCREENSHOT_DIR, { recursive: true });
});
after(async () => {
  await browser?.close();
  await target?.close();
});

const VIEWPORTS = [
  {
    name: 'mobile',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  },
  {
    name: 'desktop',
    viewport: { width: 1366, height: 900 },
    isMobile: false,
    hasTouch: false,
    deviceScaleFactor: 1,
  },
];
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'fontaneria-madrid', path: '/servicios/fontaneria/madrid/' },
];

for (const { name: width, ...device } of VIEWPORTS) {
  test(`${width} screenshots of the home page and a service-city page, without sideways overflow`, {
    timeout: 60_000,
  }, async (t) => {
    const context = await browser.newContext(device);
    const page = await context.newPage();
    const problems = watchProblems(page);
    for (const { name, path } of PAGES) {
      await page.goto(`${target.baseUrl}${path}`, { waitUntil: 'load' });
      await page.evaluate(() => document.fonts.ready);
      // What a first visit shows: the top of the page with the cookie notice; then, once the notice
      // is accepted (and remembered for the next page), the whole page.
      const firstView = join(SCREENSHOT_DIR, `${name}-${width}-first-view.png`);
      await page.screenshot({ path: firstView });
      const accept = page.getByRole('button', { name: 'Entendido' });
      if (path === PAGES[0]!.path) {
        await accept.click();
        await accept.waitFor({ state: 'hidden' });
      } else {
        assert.equal(
          await accept.isVisible(),
          false,
          'the cookie notice comes back after it was accepted',
        );
      }
      const file = join(SCREENSHOT_DIR, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      t.diagnostic(`saved ${firstView} and ${file}`);
      // A clean layout does not scroll sideways: nothing sticks out of the viewport's width.
      const overflow = await page.evaluate(() => {
        const limit = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll('body *')]
          .filter((element) => {
            const rect = element.getBoundingClientRect();
            return (
              rect.width > 0 &&
              rect.right > limit + 1 &&
              getComputedStyle(element).position !== 'fixed'
            );
          })
          .filter((element) => !element.closest('.table-wrap, pre'))
          .slice(0, 5)
          .map(
            (element) =>
              `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`,
          );
        return { scrollWidth: document.documentElement.scrollWidth, limit, wide };
      });
      assert.ok(
        overflow.scrollWidth <= overflow.limit,
        `${path} at ${width} width scrolls sideways (${overflow.scrollWidth}px > ${overflow.limit}px): ${overflow.wide.join(', ')}`,
      );
      assert.deepEqual(
        overflow.wide,
        [],
        `${path} at ${width} width: elements wider than the viewport`,
      );
    }
    assert.deepEqual(problems.take(), []);
    await context.close();
  });
}
