/**
 * The published package on Netlify: examples/netlify (@astrojs/netlify, agentApi() with zero options)
 * with the packed tarball installed from npm's point of view, run as Netlify runs it: `netlify serve
 * --offline` as its README says (Netlify's own build of the site, then its local emulation of the CDN —
 * files, `_headers` — and of the function), behind Netlify's edge, where the Edge Function the build
 * wrote runs under Deno (tests/helpers/netlify-edge-server.ts: `netlify serve` cannot run Edge
 * Functions offline), through the serverless contract (tests/helpers/serverless-contract.ts).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, startServerProcess, type ServerProcess } from '../helpers/child-process.ts';
import { integrationLines } from '../helpers/example-site.ts';
import { findFreePort } from '../helpers/redis-server.ts';
import { describeServerlessExample } from '../helpers/serverless-contract.ts';

/** `netlify serve`'s "Local dev server ready: http://localhost:…" line. */
const READY = /Local dev server ready: (http:\/\/[^\s│]+)/;
const EDGE_SERVER = fileURLToPath(new URL('../helpers/netlify-edge-server.ts', import.meta.url));
/** The Edge Function the integration writes (Netlify's Frameworks API), from the site's root. */
const EDGE_FUNCTION =
  '.netlify/v1/edge-functions/astro-agent-api-markdown/astro-agent-api-markdown.mjs';

describeServerlessExample({
  example: 'netlify',
  functionName: 'Netlify function',
  site: 'https://netlify.example.com',
  runner: "`netlify serve --offline` behind Netlify's edge runtime",
  async serve(example, env) {
    const bin = join(example.root, 'node_modules/.bin');
    const site = await startServerProcess(
      join(bin, 'netlify'),
      ['serve', '--offline', '--port', String(await findFreePort())],
      {
        cwd: example.root,
        env: childEnv({
          ...env,
          PATH: `${bin}:${childEnv().PATH}`,
          NETLIFY_TELEMETRY_DISABLED: '1',
        }),
        ready: READY,
        timeoutMs: 240_000,
      },
    );
    let edge: ServerProcess;
    try {
      edge = await startServerProcess(
        process.execPath,
        [
          EDGE_SERVER,
          example.root,
          site.url.replace('localhost', '127.0.0.1'),
          String(await findFreePort()),
        ],
        {
          cwd: example.root,
          env: childEnv(),
          ready: /Ready on (http:\/\/\S+)/,
        },
      );
    } catch (error) {
      await site.stop();
      throw error;
    }
    return {
      ...edge,
      output: () => `${site.output()}\n${edge.output()}`,
      async stop(signal) {
        const code = await edge.stop(signal);
        await site.stop(signal);
        return code;
      },
    };
  },
  failingChecks: [
    // netlify-cli's proxy answers a function's 403 or 404 by trying the path again as .html, .htm and
    // index.html, each a new invocation (utils/proxy.js), so the function's 403 to a foreign Origin
    // reaches the client as a 404, and a missing page takes five invocations (past the check's timeout
    // on a busy machine). The runtime files' 404s are asserted above; the Origin rule by the other hosts' tests.
    'mcp-transport',
    'http-status-codes',
  ],
  // netlify serve runs each invocation in a fresh worker (the runtime loaded again, ~1 s of CPU) under
  // a 30 s timeout: 90 requests took over 5 min on the shared machine, so the quota is lowered for it.
  quota: { limit: 10, requests: 15, simultaneous: 5, env: { AGENT_API_QUOTA_ANONYMOUS: '10' } },
  describePlatform(site) {
    it("writes one self-contained Edge Function beside the adapter's, run on Markdown requests only", async (t) => {
      const { example, base } = site();
      assert.match(
        integrationLines(example.buildLog).join('\n'),
        /wrote the Edge Function that answers Accept: text\/markdown on the 4 pages' own addresses and on the addresses of the site's redirects \(1 rule\) \(\d+ KB\)/,
      );
      const code = await readFile(join(example.root, EDGE_FUNCTION), 'utf8');
      t.diagnostic(`${EDGE_FUNCTION}: ${Buffer.byteLength(code)} bytes`);
      // Netlify bundles it with Deno: nothing it imports may need node_modules.
      const imports = [...code.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map(
        (match) => match[1],
      );
      assert.ok(
        imports.every((specifier) => specifier!.startsWith('node:')),
        `imports: ${imports.join(', ')}`,
      );
      assert.match(code, /export \{[^}]*\bconfig\b/);

      const negotiated = await fetch(`${base}/guides/caching/`, {
        headers: { Accept: 'text/markdown' },
      });
      await negotiated.arrayBuffer();
      assert.equal(
        negotiated.headers.get('x-nf-edge-functions'),
        'astro-agent-api-markdown',
        'the Edge Function answered',
      );
      const browser = await fetch(`${base}/guides/caching/`, {
        headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      await browser.arrayBuffer();
      assert.equal(
        browser.headers.get('x-nf-edge-functions'),
        null,
        "a browser's request never runs it",
      );
      const twin = await fetch(`${base}/guides/caching.md`, {
        headers: { Accept: 'text/markdown' },
      });
      await twin.arrayBuffer();
      assert.equal(
        twin.headers.get('x-nf-edge-functions'),
        null,
        "nor a request at a twin's address",
      );
      const asset = await fetch(`${base}/robots.txt`, { headers: { Accept: 'text/plain' } });
      assert.equal(asset.headers.get('x-nf-edge-functions'), 'astro-agent-api-markdown');
      assert.match(await asset.text(), /^User-agent:/m, 'a file without a twin is served as it is');
    });

    it("answers Accept: text/markdown at the address of a redirect (a page's meta refresh) with the target's twin, as the runtime does everywhere", async () => {
      const { base } = site();
      const moved = await fetch(`${base}/guides/edge-caching/`, {
        headers: { Accept: 'text/markdown' },
        redirect: 'manual',
      });
      const text = await moved.text();
      assert.equal(moved.status, 200, text);
      assert.equal(
        moved.headers.get('x-nf-edge-functions'),
        'astro-agent-api-markdown',
        'the Edge Function answered',
      );
      assert.equal(
        moved.headers.get('content-location'),
        'https://netlify.example.com/guides/caching.md',
      );
      assert.match(
        text,
        /^redirected_from: "https:\/\/netlify\.example\.com\/guides\/edge-caching\/"$/m,
      );
      assert.match(text, /^# Caching at the edge$/m);
      const browser = await fetch(`${base}/guides/edge-caching/`, {
        headers: { Accept: 'text/html' },
        redirect: 'manual',
      });
      assert.equal(browser.status, 200);
      assert.match(
        await browser.text(),
        /<meta http-equiv="refresh" content="0; url=\/guides\/caching\/"/,
      );
      assert.equal(
        browser.headers.get('x-nf-edge-functions'),
        null,
        "a browser's request never runs it",
      );
    });

    it("answers a twin's address as its page's only for that page, whoever names the page", async () => {
      const { base } = site();
      const twin = await (await fetch(`${base}/guides/caching.md`)).text();
      // The header the Edge Function sets, sent by a client: another page, an agent endpoint.
      for (const named of ['/guides/cold-starts/', '/api/v1/search_pages']) {
        const answer = await fetch(`${base}/guides/caching.md?query=edge`, {
          headers: { 'x-agent-api-page': named, Accept: 'text/plain' },
        });
        assert.equal(answer.headers.get('content-type'), 'text/markdown; charset=utf-8', named);
        assert.equal(await answer.text(), twin, named);
      }
    });
  },
});
