import { access } from 'node:fs/promises';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openTarget, type Target } from './target.ts';

/** Debian's Chromium, as `.ci/run` installs it; `CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that let Chromium run as root in a container, and keep it off the network on its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  try {
    await access(CHROMIUM_PATH);
  } catch {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install it with \`apt-get install -y chromium\` (as .ci/run does), or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface PageProblems {
  /** Console errors, uncaught exceptions and failed or 4xx/5xx requests since the last `take()`. */
  take(): string[];
}

/** Records what a user would see as breakage in the browser: console errors, page errors, failed loads. */
export function watchProblems(page: Page): PageProblems {
  let problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error')
      problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    // Leaving a page aborts what it was still loading (e.g. the favicon): that is not a failure.
    if (reason !== 'net::ERR_ABORTED')
      problems.push(`request failed: ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return {
    take() {
      const taken = problems;
      problems = [];
      return taken;
    },
  };
}

/**
 * Opens the site under test and Chromium once for the calling test file (before its tests) and closes
 * both after them. Read `target` and `browser` inside tests, once the hooks have run.
 */
export function useSiteAndBrowser(): { readonly target: Target; readonly browser: Browser } {
  const session = {} as { target: Target; browser: Browser };
  before(async () => {
    session.target = await openTarget();
    session.browser = await launchBrowser();
  });
  after(async () => {
    await session.browser?.close();
    await session.target?.close();
  });
  return session;
}
