#!/usr/bin/env node
/**
 * The browser a connector opens for its user (`BROWSER` for xdg-open, as the `open` package runs it on
 * Linux), reduced to what this site's authorization needs: the authorization endpoint approves at once
 * and redirects to the client's loopback callback, so a browser only has to follow the redirects. A page
 * that cannot be reached is loaded again for a few seconds, as a person reloads it: mcp-remote opens the
 * browser before its callback server listens. The page loads exit 0 when the last one answered 2xx. Node honours
 * HTTP_PROXY here with NODE_USE_ENV_PROXY=1 (a proxy answers 502 for a page it cannot reach).
 *
 * Like a desktop browser handing the address to its open window, the command returns at once and the
 * page loads after: Python's webbrowser (FastMCP's OAuth) waits for the command with its event loop,
 * where the callback server is to start, stopped. So the loading is done by a detached copy.
 */
import { spawn } from 'node:child_process';
import { argv, env, execArgv, execPath, exit } from 'node:process';
import { setTimeout as delay } from 'node:timers/promises';

const RELOADS = 25;
const RELOAD_AFTER_MS = 200;

async function load(url: string): Promise<Response> {
  for (let reload = 0; ; reload += 1) {
    const response = await fetch(url, { redirect: 'manual' }).catch(() => undefined);
    if ((response === undefined || response.status === 502) && reload < RELOADS) {
      await delay(RELOAD_AFTER_MS);
      continue;
    }
    if (response === undefined) throw new Error(`${url} cannot be reached`);
    return response;
  }
}

const [start] = argv.slice(2);
if (!start) {
  console.error('usage: redirect-following-browser <url>');
  exit(2);
}
if (env.REDIRECT_FOLLOWING_BROWSER_TAB !== '1') {
  spawn(execPath, [...execArgv, argv[1]!, start], {
    detached: true,
    stdio: 'ignore',
    env: { ...env, REDIRECT_FOLLOWING_BROWSER_TAB: '1' },
  }).unref();
  exit(0);
}
let url = start;
let response = await load(url);
for (
  let hop = 0;
  hop < 10 && response.status >= 300 && response.status < 400 && response.headers.has('location');
  hop += 1
) {
  url = new URL(response.headers.get('location')!, url).href;
  response = await load(url);
}
await response.arrayBuffer();
exit(response.ok ? 0 : 1);
