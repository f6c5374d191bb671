/**
 * A Redis that hangs — it keeps its connections and never answers (a real redis-server stopped with
 * SIGSTOP) — behind the `npm start` front: after the first request that waits its timeout, the store
 * fails fast for a while and then one request probes it, so anonymous readers are served at once from
 * each instance's own windows, an MCP batch does not wait once per message, and a token holder gets
 * its 503 at once. Once Redis answers again, so does the store.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildMcpRequest } from '../helpers/mcp-wire.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** AGENT_API_REDIS_TIMEOUT_MS of the server: the longest one request may wait for Redis. */
const TIMEOUT_MS = 400;

let redis: TestRedis;
let server: TestServer;
before(async () => {
  redis = await startTestRedis();
  server = await startTestServer({
    env: {
      REDIS_URL: redis.url,
      AGENT_API_REDIS_TIMEOUT_MS: String(TIMEOUT_MS),
      AGENT_API_REDIS_PREFIX: `hang-${randomUUID()}:`,
    },
  });
});
after(async () => {
  redis.resume();
  await server?.close();
  await redis?.stop();
});

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

const search = async (query: string) => {
  const response = await fetch(
    `${server.url}/api/v1/search_pages?query=${encodeURIComponent(query)}`,
  );
  await response.arrayBuffer();
  return response.status;
};

describe('a Redis that hangs', () => {
  test('anonymous readers wait at most about one timeout, an MCP batch is not held once per message, a token holder gets a 503 at once', async () => {
    assert.equal(await search('fontanero'), 200);
    redis.pause();

    const sequence = await timed(async () => {
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push(await search(`fuga ${i}`));
      return statuses;
    });
    assert.deepEqual(
      sequence.result,
      Array(10).fill(200),
      'anonymous reads go on, counted per instance',
    );
    assert.ok(
      sequence.ms < 4 * TIMEOUT_MS,
      `10 anonymous searches took ${sequence.ms.toFixed(0)} ms; each waiting its timeout would take ${10 * TIMEOUT_MS} ms`,
    );

    const calls = Array.from({ length: 20 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'search_pages', arguments: { query: `grifo ${i}` } },
    }));
    const batch = await timed(async () => {
      const response = await fetch(
        buildMcpRequest(`${server.url}/mcp`, calls, { 'MCP-Protocol-Version': '2025-03-26' }),
      );
      return {
        status: response.status,
        answers: (await response.json()) as { id: number; result?: unknown }[],
      };
    });
    assert.equal(batch.result.status, 200);
    assert.equal(
      batch.result.answers.filter((answer) => answer.result !== undefined).length,
      20,
      JSON.stringify(batch.result.answers).slice(0, 500),
    );
    assert.ok(
      batch.ms < 4 * TIMEOUT_MS,
      `a batch of 20 calls took ${batch.ms.toFixed(0)} ms; once per message would be ${20 * TIMEOUT_MS} ms`,
    );

    const bearer = await timed(() =>
      fetch(`${server.url}/api/v1/quota`, {
        headers: { Authorization: `Bearer agt_at_${'a'.repeat(43)}` },
      }),
    );
    assert.equal(bearer.result.status, 503);
    assert.equal(
      ((await bearer.result.json()) as { code: string }).code,
      'temporarily_unavailable',
    );
    assert.ok(bearer.ms < 2 * TIMEOUT_MS, `${bearer.ms.toFixed(0)} ms`);

    redis.resume();
    const deadline = Date.now() + 10_000;
    let answered = false;
    while (!answered && Date.now() < deadline) {
      const registered = await fetch(`${server.url}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: 'after the hang' }),
      });
      answered = registered.status === 201;
      await registered.arrayBuffer();
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(answered, 'the store answers again once Redis does');
  });
});
