/**
 * Issue 30, "Done when" 1, over real HTTP behind one trusted proxy: requests from many addresses of one
 * IPv6 /64 share one anonymous quota, one registration limit and one failed-authentication limit; two
 * networks do not share; any spelling of an address is one client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startConfiguredServer } from '../helpers/configured-server.ts';
import type { TestServer } from '../helpers/server.ts';

const QUOTA = 10;
let server: TestServer;
before(async () => {
  server = await startConfiguredServer(
    { trustProxy: 1 },
    { env: { AGENT_API_QUOTA_ANONYMOUS: String(QUOTA) } },
  );
});
after(() => server.close());

/** The n-th address of the /64 `network` (n < 65536), in its shortest spelling. */
const hostIn = (network: string, n: number) =>
  `${network}:${n.toString(16)}:1:2:${(n * 7 + 3).toString(16)}`;

function read(from: string): Promise<Response> {
  return fetch(`${server.url}/api/v1/search_pages?query=fontanero`, {
    headers: { 'X-Forwarded-For': from },
  });
}

function register(from: string): Promise<Response> {
  return fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Forwarded-For': from },
    body: JSON.stringify({ client_name: 'rotating addresses' }),
  });
}

describe('an anonymous IPv6 client is its /64', () => {
  test('90 addresses of one /64 get one quota: the first 10 answered, the rest 429; the next /64 has its own', async () => {
    const statuses: number[] = [];
    const transcript: string[] = [];
    for (let n = 0; n < 90; n++) {
      const from = hostIn('2001:db8:77:1', n);
      const response = await read(from);
      await response.arrayBuffer();
      statuses.push(response.status);
      if (n < 2 || n === QUOTA - 1 || n === QUOTA)
        transcript.push(
          `X-Forwarded-For: ${from} → ${response.status} RateLimit: ${response.headers.get('ratelimit')}`,
        );
    }
    console.log(`one /64, ten requests a minute:\n  ${transcript.join('\n  ')}`);
    assert.deepEqual(statuses.slice(0, QUOTA), Array(QUOTA).fill(200));
    assert.deepEqual(statuses.slice(QUOTA), Array(90 - QUOTA).fill(429));

    const neighbour = await read(hostIn('2001:db8:77:2', 0));
    assert.equal(neighbour.status, 200, 'another /64 of the same /48 is another client');
    assert.equal(neighbour.headers.get('ratelimit'), `"anonimo";r=${QUOTA - 1};t=60`);
  });

  test('one address spelled five ways is one client', async () => {
    const spellings = [
      '2001:db8:99::1',
      '2001:0db8:0099:0000:0000:0000:0000:0001',
      '2001:DB8:99:0:0:0:0:1',
      '[2001:db8:99::1]:4711',
      '2001:db8:99::1%eth0',
    ];
    const remaining: string[] = [];
    for (const from of spellings) {
      const response = await read(from);
      await response.arrayBuffer();
      remaining.push(response.headers.get('ratelimit-remaining')!);
    }
    assert.deepEqual(remaining, ['9', '8', '7', '6', '5']);
  });

  test('12 registrations from 12 addresses of one /64 create 5 clients; another /64 still registers', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) {
      const response = await register(hostIn('2001:db8:88:1', n));
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, [...Array(5).fill(201), ...Array(7).fill(429)]);
    const other = await register('2001:db8:88:2::1');
    assert.equal(other.status, 201);
    assert.equal(other.headers.get('ratelimit-policy'), '"registro";q=5;w=3600');
  });

  test('failed client authentications are counted per /64: the 31st from a fresh address of the same network is 429', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 31; n++) {
      const response = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'X-Forwarded-For': hostIn('2001:db8:66:1', n),
          authorization: `Basic ${btoa('agt_ci_nobody:wrong')}`,
        },
        body: 'grant_type=client_credentials',
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, [...Array(30).fill(401), 429]);
  });

  test('IPv4 clients are still one address each', async () => {
    const first = await read('198.51.100.7');
    const second = await read('198.51.100.8');
    assert.equal(first.headers.get('ratelimit-remaining'), String(QUOTA - 1));
    assert.equal(second.headers.get('ratelimit-remaining'), String(QUOTA - 1));
    assert.equal(
      (await read('::ffff:198.51.100.7')).headers.get('ratelimit-remaining'),
      String(QUOTA - 2),
      'IPv4-mapped is the same client',
    );
  });
});
