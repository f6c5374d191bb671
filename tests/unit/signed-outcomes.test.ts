/**
 * Signed agents in the traffic report for pages, twins and documents (server/signed-agents/
 * attribute-outcome.ts): the signature is verified after the answer, from the directory an API request
 * already fetched; a page never makes the server fetch an untrusted agent's keys. An agent the site
 * does not list is only fetched from a public https host, which cannot run here: its host name
 * (`agent.example`) is served by the signing agent's loopback server through the outbound fetch, the
 * one stand-in of this file. The verifier, the document cache and the sqlite store are the real ones.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOutcome, type Outcome } from '../../packages/astro-agent-api/src/outcome.ts';
import { createDocumentCache } from '../../packages/astro-agent-api/src/server/outbound/document-cache.ts';
import type { OutboundFetch } from '../../packages/astro-agent-api/src/server/outbound/fetch-document.ts';
import { createSignedOutcomeReporter } from '../../packages/astro-agent-api/src/server/signed-agents/attribute-outcome.ts';
import { readKeyDirectory } from '../../packages/astro-agent-api/src/server/signed-agents/key-directory.ts';
import { createSignedAgentVerifier } from '../../packages/astro-agent-api/src/server/signed-agents/verify-signed-agent.ts';
import { openSqliteStore } from '../../packages/astro-agent-api/src/store/sqlite-store.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';
import { startSigningAgent, type SigningAgent } from '../helpers/signing-agent.ts';

const SITE = 'https://www.example.com';
const AGENT = 'https://agent.example';

let root: string;
let store: Store;
let agent: SigningAgent;
let agentPort = 0;
const reported: Outcome[] = [];
let reporter: ReturnType<typeof createSignedOutcomeReporter>;
let verify: ReturnType<typeof createSignedAgentVerifier>;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'signed-outcomes-'));
  store = openSqliteStore(join(root, 'store.db'));
  agent = await startSigningAgent({ kind: 'keys' }, { origin: (port) => ((agentPort = port), AGENT) });
  const publicHost: OutboundFetch = (url, { signal }) => fetch(`http://127.0.0.1:${agentPort}${url.pathname}`, { signal, redirect: 'manual' });
  verify = createSignedAgentVerifier({
    store,
    directories: createDocumentCache(publicHost, readKeyDirectory),
    siteOrigin: SITE,
    // Any valid signer counts as itself; none is trusted, so its keys come only from where they are kept.
    options: { policy: { name: 'signed-agent', quota: 600 }, trusted: {}, unlisted: 'signed' },
  });
  reporter = createSignedOutcomeReporter((outcome) => reported.push(outcome as Outcome), async () => verify);
});
after(async () => {
  await agent.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});

async function request(path: string, signed = true): Promise<Request> {
  return new Request(`http://localhost${path}`, { headers: signed ? await agent.sign(`${SITE}${path}`) : {} });
}

function pageOutcome(req: Request, surface: Outcome['surface'] = 'page'): Outcome {
  const outcome = createOutcome(req, new URL(req.url).pathname, 'GET');
  outcome.surface = surface;
  outcome.status = 200;
  return outcome;
}

describe('a page, twin or document fetched with a signature', () => {
  test('an unsigned page is reported at once; a signed one only after the answer, once verified', async () => {
    reported.length = 0;
    const unsigned = pageOutcome(await request('/a/', false));
    reporter.report(unsigned, await request('/a/', false));
    assert.deepEqual(reported, [unsigned]);
    const signedRequest = await request('/b/');
    reporter.report(pageOutcome(signedRequest), signedRequest);
    assert.equal(reported.length, 1, 'not yet: the verification waits for the answer to go');
    await reporter.settled();
    assert.equal(reported.length, 2);
  });

  test('before any API request fetched the agent\'s keys: not attributed, and nothing is fetched', async () => {
    reported.length = 0;
    const req = await request('/page/');
    reporter.report(pageOutcome(req), req);
    await reporter.settled();
    assert.equal(reported[0]!.caller, undefined);
    assert.equal(agent.directoryFetches, 0);
  });

  test('once an API request has fetched them: the page, twin and document are the agent\'s, without another fetch', async () => {
    assert.equal((await verify(await request('/api/v1/search_pages?query=x')))?.origin, AGENT);
    assert.equal(agent.directoryFetches, 1);
    reported.length = 0;
    for (const [path, surface] of [['/page/', 'page'], ['/page.md', 'markdown'], ['/llms.txt', 'document']] as const) {
      const req = await request(path);
      reporter.report(pageOutcome(req, surface), req);
    }
    await reporter.settled();
    assert.deepEqual(reported.map((outcome) => outcome.caller?.agent?.origin), [AGENT, AGENT, AGENT]);
    assert.equal(agent.directoryFetches, 1);
  });

  test('a replayed signature is not attributed twice', async () => {
    const req = await request('/page/');
    reported.length = 0;
    reporter.report(pageOutcome(req), req);
    reporter.report(pageOutcome(req), new Request(req));
    await reporter.settled();
    assert.deepEqual(reported.map((outcome) => outcome.caller?.agent?.origin), [AGENT, undefined]);
  });

  test('an outcome whose caller is known (API, MCP) or that the report does not count (OAuth) is reported at once, unverified', async () => {
    reported.length = 0;
    const req = await request('/oauth/token');
    const oauth = pageOutcome(req, 'oauth');
    reporter.report(oauth, req);
    const api = pageOutcome(req, 'api');
    api.caller = { clientId: '192.0.2.1', scopes: [], anonymous: true };
    reporter.report(api, req);
    assert.deepEqual(reported, [oauth, api]);
  });
});
