/**
 * The store's housekeeping on Workers (the `scheduled` handler of astro-agent-api/workers-entry): a
 * Worker keeps no timer, so the cron trigger sweeps D1 as the Node server's sweeper sweeps sqlite.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  sweepWorkersStore,
  type WorkersEnv,
} from '../../packages/astro-agent-api/src/hosts/workers/workers-agent-api.ts';
import { openD1Store } from '../../packages/astro-agent-api/src/store/d1-store.ts';
import { createMigratedD1 } from '../helpers/d1-over-sqlite.ts';
import { buildClientRecord } from './store-contract.ts';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);

test('a cron sweep deletes expired tokens and the clients idle past AGENT_API_CLIENT_IDLE_DAYS, and keeps the rest', async () => {
  const d1 = await createMigratedD1();
  const store = await openD1Store(d1.db, { bindingName: 'AGENT_API_DB' });
  await store.createClient(buildClientRecord('idle', NOW - 31 * DAY_MS));
  await store.createClient(buildClientRecord('active', NOW - 29 * DAY_MS));
  await store.insertToken({
    tokenHash: 'a'.repeat(64),
    clientId: 'active',
    scope: 'content:read',
    issuedAt: NOW - 2 * 3_600_000,
    expiresAt: NOW - 3_600_000,
  });
  await store.insertToken({
    tokenHash: 'b'.repeat(64),
    clientId: 'active',
    scope: 'content:read',
    issuedAt: NOW - 60_000,
    expiresAt: NOW + 3_540_000,
  });

  // The Worker's vars are strings beside its bindings; the assets binding is not read by a sweep.
  const env = { AGENT_API_DB: d1.db, AGENT_API_CLIENT_IDLE_DAYS: '30' } as unknown as WorkersEnv;
  const result = await sweepWorkersStore(env, () => NOW);

  assert.deepEqual(result, { expiredTokens: 1, recycledClients: 1 });
  assert.equal(await store.findClient('idle'), undefined);
  assert.ok(await store.findClient('active'));
  assert.ok(await store.findToken('b'.repeat(64), NOW));
  assert.equal(
    await store.findToken('a'.repeat(64), NOW - 7_200_000 + 1),
    undefined,
    'the expired token is gone, not only refused',
  );
});

test('a Worker without its D1 binding is told which binding to declare', async () => {
  await assert.rejects(sweepWorkersStore({} as WorkersEnv), /D1 binding named AGENT_API_DB/);
});
