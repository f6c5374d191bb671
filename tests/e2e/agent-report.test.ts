import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { MISSING_QUERY, runReport, sendKnownTraffic } from '../helpers/agent-traffic.ts';
import { startTestServer } from '../helpers/server.ts';
import { launchBrowser, watchProblems } from './support/browser.ts';

/** Test artifacts, not committed (`test-results/` is in .gitignore). */
const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

let browser: Browser;
let reportUrl: string;
let work: string;

// The report is of a server this file starts and stops itself: the counts are flushed on its stop.
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-report-e2e-'));
  const server = await startTestServer();
  try {
    await sendKnownTraffic([server.url], server.outDir);
  } finally {
    await server.close({ keepData: true });
  }
  const file = join(work, 'agent-report.html');
  const result = await runReport(['--since', '7d', '--out', file], {
    AGENT_API_DATA_DIR: server.dataDir,
  });
  await rm(server.dataDir, { recursive: true, force: true });
  assert.equal(result.code, 0, result.stderr);
  reportUrl = pathToFileURL(file).href;
  browser = await launchBrowser();
  await mkdir(SCREENSHOT_DIR, { recursive: true });
});
after(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

const VIEWPORTS = [
  {
    name: 'desktop',
    viewport: { width: 1280, height: 900 },
    isMobile: false,
    deviceScaleFactor: 1,
  },
  { name: 'mobile', viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 2 },
];

for (const { name, ...device } of VIEWPORTS) {
  test(`the report opens from a file in Chromium (${name}): both charts drawn, no console error, no sideways overflow`, {
    timeout: 60_000,
  }, async (t) => {
    const context = await browser.newContext({ ...device, offline: true });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(reportUrl, { waitUntil: 'load' });
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll('canvas')].map((canvas) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
        return { id: canvas.id, height: canvas.clientHeight, painted };
      }),
    );
    assert.deepEqual(
      charts.map((chart) => chart.id),
      ['by-family', 'by-surface'],
    );
    for (const chart of charts) {
      assert.ok(chart.height >= 200, `${chart.id} has room (${chart.height} px)`);
      assert.ok(chart.painted > 1_000, `${chart.id} is drawn (${chart.painted} painted pixels)`);
    }
    const missing = page.locator('section.missing tbody tr');
    assert.equal(await missing.count(), 1);
    assert.equal(await missing.locator('td').first().textContent(), MISSING_QUERY);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    const file = join(SCREENSHOT_DIR, `agent-report-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    t.diagnostic(`saved ${file}`);
    assert.deepEqual(problems.take(), []);
    await context.close();
  });
}
