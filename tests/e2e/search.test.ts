import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser, watchProblems } from './support/browser.ts';

const session = useSiteAndBrowser();

const SEARCH_BOX = 'header [role="search"] input[type="search"], header input[type="search"]';
const RESULT_LINK = '.pagefind-ui__result-link';

/** The result links Pagefind UI shows, once it has shown any. */
async function resultLinks(page: Page): Promise<{ text: string; href: string }[]> {
  await page.locator(RESULT_LINK).first().waitFor({ timeout: 15_000 });
  return page.locator(RESULT_LINK).evaluateAll((links) =>
    links.map((link) => ({
      text: link.textContent?.trim() ?? '',
      href: (link as HTMLAnchorElement).href,
    })),
  );
}

test('the header search box finds "fuga de agua" and a click lands on a plumbing page', {
  timeout: 60_000,
}, async (t) => {
  const page = await session.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(`${session.target.baseUrl}/`);
  const box = page.locator(SEARCH_BOX).first();
  await box.fill('fuga de agua');
  await box.press('Enter');
  const links = await resultLinks(page);
  t.diagnostic(
    `results: ${links.map((link) => `${link.text} <${new URL(link.href).pathname}>`).join(' | ')}`,
  );
  const plumbing = links
    .slice(0, 5)
    .findIndex((link) => new URL(link.href).pathname.startsWith('/servicios/fontaneria/'));
  assert.ok(
    plumbing >= 0,
    `no plumbing (fontanería) page among the first results: ${links.map((link) => link.href).join(', ')}`,
  );
  await Promise.all([
    page.waitForURL(/\/servicios\/fontaneria\//),
    page.locator(RESULT_LINK).nth(plumbing).click(),
  ]);
  assert.match(await page.locator('h1').innerText(), /fontaner/i);
  assert.deepEqual(problems.take(), []);
  await page.close();
});

test('a keyboard-only user reaches the search box with Tab and searches with Enter', {
  timeout: 60_000,
}, async (t) => {
  const page = await session.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(`${session.target.baseUrl}/`);
  let presses = 0;
  let focused = '';
  for (; presses < 40; ) {
    await page.keyboard.press('Tab');
    presses++;
    focused = await page.evaluate(() => {
      const element = document.activeElement;
      return element?.matches('header input[type="search"]') ? 'search' : (element?.tagName ?? '');
    });
    if (focused === 'search') break;
  }
  assert.equal(
    focused,
    'search',
    `40 presses of Tab from the top of the page never reached the header search box`,
  );
  t.diagnostic(`the search box is the ${presses}th Tab stop`);
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return {
      outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
      shadow: style.boxShadow !== 'none',
    };
  });
  assert.ok(
    outline.outline || outline.shadow,
    'the focused search box shows no focus indicator (outline or box-shadow)',
  );

  await page.keyboard.type('fuga de agua');
  await page.keyboard.press('Enter');
  const links = await resultLinks(page);
  assert.ok(links.length > 0);
  // On to the first result with the keyboard too: Tab onwards from the results page's search field.
  await page.locator('.pagefind-ui__search-input').focus();
  let onResult = false;
  for (let i = 0; i < 10 && !onResult; i++) {
    await page.keyboard.press('Tab');
    onResult = await page.evaluate(
      (selector) => document.activeElement?.matches(selector) ?? false,
      `${RESULT_LINK}`,
    );
  }
  assert.ok(onResult, 'Tab from the results page search field does not reach the first result');
  const expected = new URL(
    await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href),
  ).pathname;
  await Promise.all([
    page.waitForURL((url) => url.pathname === expected),
    page.keyboard.press('Enter'),
  ]);
  assert.deepEqual(problems.take(), []);
  await page.close();
});
