/**
 * The published package on Netlify: examples/netlify (@astrojs/netlify, agentApi() with zero options)
 * with the packed tarball installed from npm's point of view, run by `netlify serve --offline` as its
 * README says — Netlify's own build of the site, then its local emulation of the CDN (files,
 * `_headers`) and of the function — through the serverless contract (tests/helpers/serverless-contract.ts).
 */
import { join } from 'node:path';
import { childEnv, startServerProcess } from '../helpers/child-process.ts';
import { findFreePort } from '../helpers/redis-server.ts';
import { describeServerlessExample } from '../helpers/serverless-contract.ts';

/** `netlify serve`'s "Local dev server ready: http://localhost:…" line. */
const READY = /Local dev server ready: (http:\/\/[^\s│]+)/;

describeServerlessExample({
  example: 'netlify',
  functionName: 'Netlify function',
  site: 'https://netlify.example.com',
  runner: '`netlify serve --offline`',
  async serve(example, env) {
    const bin = join(example.root, 'node_modules/.bin');
    return startServerProcess(join(bin, 'netlify'), ['serve', '--offline', '--port', String(await findFreePort())], {
      cwd: example.root,
      env: childEnv({ ...env, PATH: `${bin}:${childEnv().PATH}`, NETLIFY_TELEMETRY_DISABLED: '1' }),
      ready: READY,
      timeoutMs: 240_000,
    });
  },
  // Netlify's CDN answers a prerendered page before any function; only an edge function could route on
  // Accept, and Netlify's local runtime cannot run one offline (the README's "Vercel and Netlify").
  negotiatesPrerenderedPages: false,
  failingChecks: [
    'markdown-negotiation',
    'markdown-negotiation-text-plain',
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
});
