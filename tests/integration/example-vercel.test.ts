/**
 * The published package on Vercel: examples/vercel (@astrojs/vercel, agentApi() with zero options) with
 * the packed tarball installed from npm's point of view and built with its own `astro build`, whose
 * Build Output API folder (`.vercel/output`) is served as Vercel serves it — config.json's routes, the
 * static files, the function (tests/helpers/vercel-output-server.ts) — through the serverless contract
 * (tests/helpers/serverless-contract.ts).
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { childEnv, startServerProcess } from '../helpers/child-process.ts';
import { findFreePort } from '../helpers/redis-server.ts';
import { describeServerlessExample } from '../helpers/serverless-contract.ts';

const RUNNER = fileURLToPath(new URL('../helpers/vercel-output-server.ts', import.meta.url));

describeServerlessExample({
  example: 'vercel',
  functionName: 'Vercel function',
  site: 'https://vercel.example.com',
  runner: 'the Build Output API runner',
  async serve(example, env) {
    return startServerProcess(
      process.execPath,
      [RUNNER, join(example.root, '.vercel/output'), String(await findFreePort())],
      {
        cwd: example.root,
        env: childEnv(env),
        ready: /Ready on (http:\/\/\S+)/,
      },
    );
  },
  // Its routes send every request whose Accept names text/markdown or text/plain to the function (a
  // route matches a header by a regular expression, which cannot weigh q-values), and the function
  // holds no prerendered page to answer with when the negotiation chooses HTML.
  htmlRankedFirst: {
    status: 404,
    why: "Vercel's function answers Astro's 404 page, holding no prerendered page",
  },
  quota: { limit: 60, requests: 90, simultaneous: 90 },
});
