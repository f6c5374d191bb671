import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OUTBOUND_FETCH } from '../../packages/astro-agent-api/src/contract/identity-contract.ts';
import { createDocumentCache } from '../../packages/astro-agent-api/src/server/outbound/document-cache.ts';
import type { OutboundFetch } from '../../packages/astro-agent-api/src/server/outbound/fetch-document.ts';

const URL_OF_KEYS = new URL('https://agent.example/.well-known/http-message-signatures-directory');

/** A host whose answer the test sets, on a clock the test moves. */
function createHost() {
  const host = {
    answer: () =>
      Response.json({ keys: ['first'] }, { headers: { 'cache-control': 'max-age=60' } }),
    fetches: 0,
    clock: 1_000_000,
  };
  const fetchOutbound: OutboundFetch = async () => {
    host.fetches++;
    return host.answer();
  };
  const cache = createDocumentCache(
    fetchOutbound,
    (value) => {
      const keys = (value as { keys?: string[] }).keys;
      if (!keys?.length) throw new Error('no keys');
      return keys;
    },
    { now: () => host.clock },
  );
  return { host, cache };
}

test('a document its host cannot serve again stays in use: an outage is no news of it (draft-ietf-webbotauth-httpsig-protocol, Discovery Failure)', async () => {
  const { host, cache } = createHost();
  assert.deepEqual(await cache.get(URL_OF_KEYS, { allowPrivate: false }), ['first']);
  host.answer = () => new Response('down', { status: 503 });
  host.clock += 61_000;
  assert.deepEqual(
    await cache.get(URL_OF_KEYS, { allowPrivate: false }),
    ['first'],
    'kept through the failure',
  );
  assert.equal(host.fetches, 2);
  // Tried again after the failure window, not on every request.
  assert.deepEqual(await cache.get(URL_OF_KEYS, { allowPrivate: false }), ['first']);
  assert.equal(host.fetches, 2);
  host.answer = () => Response.json({ keys: ['second'] });
  host.clock += OUTBOUND_FETCH.failureCacheSeconds * 1000 + 1;
  assert.deepEqual(
    await cache.get(URL_OF_KEYS, { allowPrivate: false }),
    ['second'],
    'the host answers again: its document replaces the old one',
  );
});

test('a document fetched but refused replaces the one read before (a directory that dropped its keys): it is news', async () => {
  const { host, cache } = createHost();
  assert.deepEqual(await cache.get(URL_OF_KEYS, { allowPrivate: false }), ['first']);
  host.answer = () => Response.json({ keys: [] });
  host.clock += 61_000;
  await assert.rejects(cache.get(URL_OF_KEYS, { allowPrivate: false }), /no keys/);
});

test('a document never read: a failure is a failure', async () => {
  const { host, cache } = createHost();
  host.answer = () =>
    new Response('', { status: 302, headers: { location: 'https://elsewhere.example/' } });
  await assert.rejects(
    cache.get(URL_OF_KEYS, { allowPrivate: false }),
    /302 \(a redirect, not followed\)/,
  );
});
