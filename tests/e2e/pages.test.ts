import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, watchProblems, type PageProblems } from './support/browser.ts';
import { samplePages } from './support/site-pages.ts';
import { openTarget, readSitemap, type Target } from './support/target.ts';

let target: Target;
let browser: Browser;
let page: Page;
let problems: PageProblems;
let sample: Map<string, string[]>;

before(async () => {
  target = await openTarget();
  browser = await launchBrowser();
  page = await browser.newPage();
  problems = watchProblems(page);
  sample = samplePages(await readSitemap(target));
});
after(async () => {
  await browser?.close();
  await target?.close();
});

interface Rendered {
  title: string;
  h1: string[];
  navLinks: number;
  footerText: string;
}

/** What a visitor sees of the page's frame: title, main heading, navigation and footer. */
async function openPage(url: string): Promise<Rendered> {
  const response = await page.goto(target.toTarget(url)!.href, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, `${url} answers ${response?.status()}`);
  return page.evaluate(() => ({
    title: document.title.trim(),
    h1: [...document.querySelectorAll('h1')].map((h1) => h1.textContent?.trim() ?? ''),
    navLinks: document.querySelectorAll('header nav a[href]').length,
    footerText: document.querySelector('footer')?.textContent?.trim() ?? '',
  }));
}

describe('pages render with a title, one main heading, navigation and footer, and no console errors', () => {
  for (const kind of ['home', 'service', 'service-city', 'city', 'guide', 'other']) {
    test(`${kind} pages`, { timeout: 60_000 }, async (t) => {
      const urls = sample.get(kind) ?? [];
      assert.ok(urls.length > 0, `the sitemap has no ${kind} page`);
      const failures: string[] = [];
      for (const url of urls) {
        const rendered = await openPage(url);
        const path = new URL(url).pathname;
        if (!rendered.title) failures.push(`${path}: empty <title>`);
        if (rendered.h1.length !== 1 || !rendered.h1[0])
          failures.push(
            `${path}: ${rendered.h1.length} <h1> elements ${JSON.stringify(rendered.h1)}`,
          );
        if (rendered.navLinks < 3)
          failures.push(`${path}: the header navigation has ${rendered.navLinks} links`);
        if (!rendered.footerText) failures.push(`${path}: no footer`);
        for (const problem of problems.take()) failures.push(`${path}: ${problem}`);
      }
      t.diagnostic(
        `${urls.length} ${kind} pages: ${urls.map((url) => new URL(url).pathname).join(' ')}`,
      );
      assert.deepEqual(failures, []);
    });
  }
});

test('/desarrolladores/#versionado scrolls to the versioning policy', {
  timeout: 30_000,
}, async () => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const response = await page.goto(`${target.baseUrl}/desarrolladores/#versionado`, {
    waitUntil: 'load',
  });
  assert.equal(response?.status(), 200);
  const section = page.locator('#versionado');
  assert.equal(await section.count(), 1, 'exactly one element has id="versionado"');
  // The browser scrolls to the fragment on load; poll briefly in case smooth scrolling is on.
  let box = await visibleBox(page);
  for (let i = 0; i < 20 && !box.inViewport; i++) {
    await page.waitForTimeout(100);
    box = await visibleBox(page);
  }
  assert.ok(box.scrollY > 0, 'the page did not scroll');
  assert.ok(
    box.inViewport,
    `#versionado is not in the viewport: top ${box.top}px of ${box.viewport}px`,
  );
  assert.match(await section.innerText(), /versi/i);
  const policy = await page.evaluate(() => {
    // The heading and the list after it, up to the next heading of the same level.
    const heading = document.getElementById('versionado')!;
    let text = heading.textContent ?? '';
    for (
      let node = heading.nextElementSibling;
      node && node.tagName !== heading.tagName;
      node = node.nextElementSibling
    ) {
      text += `\n${(node as HTMLElement).innerText}`;
    }
    return text;
  });
  assert.match(policy, /API-Version: 1/, 'the policy names the API-Version header');
  assert.match(policy, /90 d[ií]as/, 'the policy states the 90-day notice');
  assert.deepEqual(problems.take(), []);
});

async function visibleBox(
  page: Page,
): Promise<{ top: number; viewport: number; scrollY: number; inViewport: boolean }> {
  return page.evaluate(() => {
    const rect = document.getElementById('versionado')!.getBoundingClientRect();
    return {
      top: Math.round(rect.top),
      viewport: window.innerHeight,
      scrollY: window.scrollY,
      // Scrolling to a fragment can stop a fraction of a pixel past the element's top.
      inViewport: rect.top > -1 && rect.top < window.innerHeight && rect.bottom > 0,
    };
  });
}
