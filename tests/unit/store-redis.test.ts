import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'redis';
import { openStore } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { parseEnvironment } from '../../packages/astro-agent-api/src/environment.ts';
import { openRedisStore } from '../../packages/astro-agent-api/src/store/redis-store.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';
import { StoreUnavailableError } from '../../packages/astro-agent-api/src/store/store-unavailable.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { buildClientRecord, runStoreContract, sha256 } from './store-contract.ts';

// A private redis-server on a free port; each store of the suite gets its own key prefix in it.
const redis = await startTestRedis();
after(() => redis.stop());
const freshPrefix = () => `test-${randomUUID()}:`;

runStoreContract('redis', () =>
  openStore({
    dataDir: '/nonexistent/unused-with-redis',
    settings: parseEnvironment({ REDIS_URL: redis.url, AGENT_API_REDIS_PREFIX: freshPrefix() }),
  }),
);

const DAY = 86_400_000;
const T0 = 1_800_000_000_000;

describe('redis store', () => {
  let raw: ReturnType<typeof createClient>;
  before(async () => {
    raw = createClient({ url: redis.url });
    await raw.connect();
  });
  after(() => raw.close());

  test('is selected by REDIS_URL in the env given to openStore, never by a stray process.env', async () => {
    const prefix = freshPrefix();
    const store = await openStore({
      dataDir: '/nonexistent',
      settings: parseEnvironment({ REDIS_URL: redis.url, AGENT_API_REDIS_PREFIX: prefix }),
    });
    assert.equal(store.backend, 'redis');
    await store.close();
  });

  test('an unreachable Redis at start-up is an error that says what to do, not a silent sqlite store', async () => {
    const gone = await startTestRedis();
    await gone.stop();
    const started = Date.now();
    await assert.rejects(
      openStore({
        dataDir: '/nonexistent',
        settings: parseEnvironment({ REDIS_URL: `redis://:hunter2@127.0.0.1:${gone.port}/0` }),
      }),
      (error: Error) => {
        assert.match(
          error.message,
          /^Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0 \(REDIS_URL\): .*ECONNREFUSED/,
        );
        assert.match(error.message, /does not fall back to its embedded store/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
    assert.ok(Date.now() - started < 2_000, 'fails fast');
  });

  test('token keys expire in Redis at the token expiry; window keys with their window; hashes only', async () => {
    const prefix = freshPrefix();
    const store = await openRedisStore({ url: redis.url, keyPrefix: prefix });
    const now = Date.now();
    const token = 'agt_at_THIS-TOKEN-MUST-NOT-BE-STORED-IN-CLEAR-0000000000';
    await store.createClient(buildClientRecord('ttl', now));
    await store.insertToken({
      tokenHash: sha256(token),
      clientId: 'ttl',
      scope: 'content:read',
      issuedAt: now,
      expiresAt: now + 3_600_000,
    });
    assert.equal(await raw.pExpireTime(`${prefix}token:${sha256(token)}`), now + 3_600_000);
    await store.windows.hit('identificado:ttl', { limit: 600, windowMs: 60_000, now });
    const ttl = await raw.pTTL(`${prefix}window:identificado:ttl`);
    assert.ok(ttl > 59_000 && ttl <= 60_000, `window TTL ${ttl}`);
    const keys = await raw.keys(`${prefix}*`);
    for (const name of keys) assert.equal(name.includes(token), false);
    const dump = JSON.stringify(
      await Promise.all(
        keys.map((name) =>
          raw.type(name).then((type) => (type === 'hash' ? raw.hGetAll(name) : null)),
        ),
      ),
    );
    assert.equal(dump.includes(token), false);
    await store.close();
  });

  test('anonymous windows are shared between two stores, like the identified ones', async () => {
    const prefix = freshPrefix();
    const [a, b] = await Promise.all([
      openRedisStore({ url: redis.url, keyPrefix: prefix }),
      openRedisStore({ url: redis.url, keyPrefix: prefix }),
    ]);
    const now = Date.now();
    const hits = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).anonymousWindows.hit('anonimo:192.0.2.7', {
          limit: 60,
          windowMs: 60_000,
          now,
        }),
      ),
    );
    assert.equal(hits.filter((hit) => hit.allowed).length, 60);
    await Promise.all([a.close(), b.close()]);
  });

  test('recycling from several instances at once deletes each idle client exactly once, with its tokens', async () => {
    const prefix = freshPrefix();
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openRedisStore({ url: redis.url, keyPrefix: prefix })),
    );
    const [first] = stores;
    // More than one sweep batch (500), so the instances interleave between batches.
    for (let i = 0; i < 1_200; i++)
      await first!.createClient(buildClientRecord(`idle-${i}`, T0 - 200 * DAY));
    for (let i = 0; i < 30; i++)
      await first!.createClient(buildClientRecord(`active-${i}`, T0 - DAY));
    await first!.insertToken({
      tokenHash: sha256('idle token'),
      clientId: 'idle-7',
      scope: 'content:read',
      issuedAt: T0 - 200 * DAY,
      expiresAt: T0 + DAY,
    });

    const counts = await Promise.all(
      stores.map((store) => store.deleteIdleClients(T0 - 180 * DAY)),
    );
    assert.equal(
      counts.reduce((sum, n) => sum + n, 0),
      1_200,
    );
    assert.equal(await first!.findToken(sha256('idle token'), T0), undefined);
    assert.equal(await raw.zCard(`${prefix}clients:last-token`), 30);
    assert.deepEqual((await raw.keys(`${prefix}client:idle-*`)).length, 0);
    assert.equal(await raw.exists(`${prefix}client-tokens:idle-7`), 0);
    assert.equal(await raw.zCard(`${prefix}tokens:expiry`), 0);
    await Promise.all(stores.map((store) => store.close()));
  });
});

describe('redis store when Redis goes away', () => {
  let lost: TestRedis;
  let store: Store;
  const warnings: string[] = [];
  before(async () => {
    lost = await startTestRedis();
    store = await openRedisStore({
      url: lost.url,
      timeoutMs: 300,
      warn: (message) => warnings.push(message),
    });
  });
  after(async () => {
    await store.close();
    await lost.stop();
  });

  test('fails fast with StoreUnavailableError (503, Retry-After), keeps anonymous windows in memory, and recovers', async () => {
    const now = Date.now();
    await store.createClient(buildClientRecord('survivor', now));
    await lost.kill();

    const started = Date.now();
    for (const attempt of [
      () => store.findToken(sha256('x'), now),
      () => store.findClient('survivor'),
      () => store.windows.hit('identificado:survivor', { limit: 600, windowMs: 60_000, now }),
    ]) {
      await assert.rejects(attempt(), (error: unknown) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.equal(error.status, 503);
        assert.equal(error.headers['Retry-After'], '5');
        return true;
      });
    }
    assert.ok(Date.now() - started < 1_000, 'no wait for an unreachable Redis');

    const anonymous = [];
    for (let i = 0; i < 5; i++)
      anonymous.push(
        await store.anonymousWindows.hit('anonimo:198.51.100.1', {
          limit: 3,
          windowMs: 60_000,
          now,
        }),
      );
    assert.deepEqual(
      anonymous.map((hit) => hit.allowed),
      [true, true, true, false, false],
    );
    const degraded = warnings.filter((message) =>
      /anonymous requests are now limited per instance/.test(message),
    );
    assert.equal(degraded.length, 1, 'warned once, not per request');
    assert.equal(
      warnings.filter((message) => /lost the connection to Redis/.test(message)).length,
      1,
    );

    await lost.restart();
    await waitFor(async () => (await store.findClient('survivor').catch(() => 'down')) !== 'down');
    // A restarted Redis without persistence is empty: the client is gone, but the store works again.
    assert.equal(await store.findClient('survivor'), undefined);
    assert.equal(
      (
        await store.anonymousWindows.hit('anonimo:198.51.100.1', {
          limit: 3,
          windowMs: 60_000,
          now,
        })
      ).count,
      1,
    );
    assert.ok(warnings.some((message) => /reconnected to Redis/.test(message)));
    assert.ok(warnings.some((message) => /shared store is back/.test(message)));
  });

  test('a full Redis (maxmemory) is unavailable too, not an internal error', async () => {
    await waitFor(async () => (await store.findClient('x').catch(() => 'down')) !== 'down');
    const admin = createClient({ url: lost.url });
    await admin.connect();
    await admin.configSet('maxmemory', '1');
    try {
      await assert.rejects(
        store.createClient(buildClientRecord(`full-${randomUUID()}`, Date.now())),
        StoreUnavailableError,
      );
      await assert.rejects(
        store.windows.hit('identificado:full', { limit: 60, windowMs: 60_000, now: Date.now() }),
        StoreUnavailableError,
      );
      assert.equal(
        (
          await store.anonymousWindows.hit('anonimo:203.0.113.8', {
            limit: 60,
            windowMs: 60_000,
            now: Date.now(),
          })
        ).allowed,
        true,
      );
    } finally {
      await admin.configSet('maxmemory', '0');
      await admin.close();
    }
  });

  test('a Redis that hangs holds a request no longer than the timeout', async () => {
    await waitFor(async () => (await store.findClient('x').catch(() => 'down')) !== 'down');
    lost.pause();
    try {
      const started = Date.now();
      await assert.rejects(store.findToken(sha256('y'), Date.now()), StoreUnavailableError);
      const waited = Date.now() - started;
      assert.ok(waited >= 250 && waited < 800, `waited ${waited} ms with a 300 ms timeout`);
      assert.equal(
        (
          await store.anonymousWindows.hit('anonimo:203.0.113.9', {
            limit: 60,
            windowMs: 60_000,
            now: Date.now(),
          })
        ).allowed,
        true,
      );
    } finally {
      lost.resume();
    }
    await waitFor(async () => (await store.findClient('x').catch(() => 'down')) !== 'down');
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
