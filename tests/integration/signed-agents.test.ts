/**
 * Issue 30, "Done when" 2, over real HTTP: a request signed under Web Bot Auth (RFC 9421) by an agent
 * the site lists gets that agent's quota and RateLimit-Policy; forged, replayed, expired and
 * misdirected signatures, and signatures of agents the site does not list, are anonymous. Each
 * answer tells the signer what its signature came to (`Web-Bot-Auth`: verified, invalid or
 * unverified, draft-ietf-webbotauth-httpsig-protocol's outcomes). The signer is Cloudflare's
 * web-bot-auth for the legacy string Signature-Agent and http-message-sig for the Dictionary forms
 * (origin, JWK Set, metadata document); its keys are served on a loopback port the site lists.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { utcDay } from '../../packages/astro-agent-api/src/store/utc-day.ts';
import { startConfiguredServer } from '../helpers/configured-server.ts';
import type { TestServer } from '../helpers/server.ts';
import { startSigningAgent, type SigningAgent } from '../helpers/signing-agent.ts';

/** The site the demo build publishes: signatures cover its authority, whatever port the test server has. */
const SITE = 'http://localhost:4321';
const PATH = '/api/v1/search_pages?query=fontanero';
const AGENT_QUOTA = 20;

let listed: SigningAgent;
let unlisted: SigningAgent;
let server: TestServer;
before(async () => {
  [listed, unlisted] = await Promise.all([startSigningAgent(), startSigningAgent()]);
  server = await startConfiguredServer({
    signedAgents: {
      policy: { name: 'agente-firmado', quota: 600 },
      trusted: { [listed.origin]: { name: 'agente-prueba', quota: AGENT_QUOTA } },
      unlisted: 'anonymous',
    },
  });
});
after(async () => {
  await server?.close();
  await Promise.all([listed?.close(), unlisted?.close()]);
});

function get(headers: Record<string, string> = {}, path = PATH): Promise<Response> {
  return fetch(`${server.url}${path}`, { headers });
}

describe('a listed agent that signs its requests has a quota of its own', () => {
  test("a signed request gets the agent's policy; the transcript shows it", async () => {
    const signature = await listed.sign(`${SITE}${PATH}`);
    const response = await get(signature);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('ratelimit-policy'), `"agente-prueba";q=${AGENT_QUOTA};w=60`);
    assert.equal(response.headers.get('ratelimit'), `"agente-prueba";r=${AGENT_QUOTA - 1};t=60`);
    assert.equal(
      response.headers.get('web-bot-auth'),
      `verified;agent="${listed.origin}"`,
      'the agent is told its signature counted',
    );
    console.log(
      `signed request:\n  GET ${SITE}${PATH}\n${Object.entries(signature)
        .map(([name, value]) => `  ${name}: ${value}`)
        .join('\n')}\n` +
        `answer: ${response.status}\n${['ratelimit-policy', 'ratelimit', 'ratelimit-remaining'].map((name) => `  ${name}: ${response.headers.get(name)}`).join('\n')}`,
    );
  });

  test('the Dictionary form of Signature-Agent is verified too', async () => {
    const response = await get(await listed.sign(`${SITE}${PATH}`, { form: 'dictionary' }));
    assert.equal(response.headers.get('ratelimit-policy'), `"agente-prueba";q=${AGENT_QUOTA};w=60`);
  });

  test('the key directory was fetched once and is kept as its Cache-Control says', () => {
    assert.equal(listed.directoryFetches, 1);
  });

  test("the agent's quota is its own: used up, it is 429 while an unsigned reader from the same address still reads", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AGENT_QUOTA; i++) {
      const response = await get(await listed.sign(`${SITE}${PATH}`));
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    assert.equal(
      statuses.filter((status) => status === 200).length,
      AGENT_QUOTA - 2,
      'two were used by the tests above',
    );
    assert.equal(statuses.at(-1), 429);
    const unsigned = await get();
    assert.equal(unsigned.status, 200);
    assert.match(unsigned.headers.get('ratelimit-policy')!, /^"anonimo";q=60;w=60$/);
  });
});

describe('a signature that proves nothing is an anonymous request, never an error', () => {
  const anonymousPolicy = '"anonimo";q=60;w=60';

  test("forged: signed with a key the agent's directory does not hold (unverified: the key is unknown); an unsigned request gets no Web-Bot-Auth", async () => {
    const response = await get(await listed.sign(`${SITE}${PATH}`, { key: 'stranger' }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('ratelimit-policy'), anonymousPolicy);
    assert.equal(
      response.headers.get('web-bot-auth'),
      'unverified;reason="keyid not among the agent keys"',
    );
    assert.equal((await get()).headers.get('web-bot-auth'), null);
  });

  test("tampered: the signed Signature-Agent swapped for another agent's", async () => {
    const signature = await listed.sign(`${SITE}${PATH}`);
    const response = await get({ ...signature, 'Signature-Agent': `"${unlisted.origin}"` });
    assert.equal(response.headers.get('ratelimit-policy'), anonymousPolicy);
  });

  test('replayed: the same signed headers sent twice count once as the agent', async () => {
    const fresh = await startSigningAgent();
    const other = await startConfiguredServer({
      signedAgents: {
        policy: { name: 'agente-firmado', quota: 600 },
        trusted: { [fresh.origin]: {} },
        unlisted: 'anonymous',
      },
    });
    try {
      const signature = await fresh.sign(`${SITE}${PATH}`);
      const first = await fetch(`${other.url}${PATH}`, { headers: signature });
      const replay = await fetch(`${other.url}${PATH}`, { headers: signature });
      assert.equal(first.headers.get('ratelimit-policy'), '"agente-firmado";q=600;w=60');
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('ratelimit-policy'), anonymousPolicy);
    } finally {
      await other.close();
      await fresh.close();
    }
  });

  test('expired, too old, or made in the future', async () => {
    const now = Date.now();
    for (const [created, expires] of [
      [now - 600_000, now - 540_000],
      [now - 400_000, now + 60_000],
      [now + 300_000, now + 360_000],
    ] as const) {
      const response = await get(
        await listed.sign(`${SITE}${PATH}`, {
          created: new Date(created),
          expires: new Date(expires),
        }),
      );
      assert.equal(
        response.headers.get('ratelimit-policy'),
        anonymousPolicy,
        `created ${created - now} ms from now`,
      );
      assert.match(
        response.headers.get('web-bot-auth')!,
        /^invalid;reason="[ -~]+"$/,
        `created ${created - now} ms from now`,
      );
    }
  });

  test("made for another site: @authority is not this site's", async () => {
    const response = await get(await listed.sign(`https://elsewhere.example${PATH}`));
    assert.equal(response.headers.get('ratelimit-policy'), anonymousPolicy);
  });

  test('malformed signature fields', async () => {
    const good = await listed.sign(`${SITE}${PATH}`);
    for (const broken of [
      { ...good, Signature: 'sig1=:bm90IGEgc2lnbmF0dXJl:' },
      { ...good, Signature: 'garbage' },
      { ...good, 'Signature-Input': 'sig1=("@authority");tag="web-bot-auth"' },
      { ...good, 'Signature-Input': '((((' },
      { ...good, 'Signature-Agent': '"not a url"' },
      { ...good, 'Signature-Agent': '"https://agent.example/some/path"' },
    ]) {
      const response = await get(broken);
      assert.equal(response.status, 200, JSON.stringify(broken));
      assert.equal(response.headers.get('ratelimit-policy'), anonymousPolicy);
    }
  });

  test('a valid signature of an agent the site does not list: anonymous (unverified: not checked), and its directory is never fetched', async () => {
    const response = await get(await unlisted.sign(`${SITE}${PATH}`));
    assert.equal(response.headers.get('ratelimit-policy'), anonymousPolicy);
    assert.equal(
      response.headers.get('web-bot-auth'),
      'unverified;reason="agent not checked by this site"',
    );
    assert.equal(unlisted.directoryFetches, 0);
  });
});

describe('draft -02: keys named by a typed Signature-Agent member, a JWK Set or a Client ID Metadata Document', () => {
  test("the agent is the URL of its keys, listed as such; each form gets the agent's policy", async () => {
    const agent = await startSigningAgent();
    const typed = await startConfiguredServer({
      signedAgents: {
        policy: { name: 'agente-firmado', quota: 600 },
        trusted: {
          [`${agent.origin}/jwks.json`]: { name: 'por-jwks', quota: 30 },
          [`${agent.origin}/client.json`]: { name: 'por-cimd', quota: 40 },
        },
        unlisted: 'anonymous',
      },
    });
    try {
      const byJwks = await fetch(`${typed.url}${PATH}`, {
        headers: await agent.sign(`${SITE}${PATH}`, { form: 'jwks_uri' }),
      });
      assert.equal(byJwks.headers.get('ratelimit-policy'), '"por-jwks";q=30;w=60');
      assert.equal(
        byJwks.headers.get('web-bot-auth'),
        `verified;agent="${agent.origin}/jwks.json"`,
      );
      const byDocument = await fetch(`${typed.url}${PATH}`, {
        headers: await agent.sign(`${SITE}${PATH}`, { form: 'cimd' }),
      });
      assert.equal(byDocument.headers.get('ratelimit-policy'), '"por-cimd";q=40;w=60');
      assert.equal(
        byDocument.headers.get('web-bot-auth'),
        `verified;agent="${agent.origin}/client.json"`,
      );
      // Its origin is not listed: its well-known directory counts for nothing here.
      const byOrigin = await fetch(`${typed.url}${PATH}`, {
        headers: await agent.sign(`${SITE}${PATH}`, { form: 'dictionary' }),
      });
      assert.match(byOrigin.headers.get('ratelimit-policy')!, /^"anonimo";/);
      assert.equal(agent.directoryFetches, 0);
    } finally {
      await typed.close();
      await agent.close();
    }
  });
});

/** The traffic counted today in a stopped server's store, by surface, for one family. */
async function countsOf(stopped: TestServer, agent: SigningAgent): Promise<Record<string, number>> {
  const store = await openStore({ dataDir: stopped.dataDir });
  try {
    const { requests } = await store.readTraffic(utcDay(Date.now()));
    const family = `${new URL(agent.origin).host} (signed)`;
    const counts: Record<string, number> = {};
    for (const row of requests.filter((row) => row.family === family))
      counts[row.surface] = (counts[row.surface] ?? 0) + row.count;
    return counts;
  } finally {
    await store.close();
  }
}

describe("a signed assistant's new grants are counted per agent, not per address", () => {
  test('past the 20 an hour of one network, a trusted agent following the redirect itself still gets codes; an unsigned caller from the same address does not', async () => {
    const registration = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: ['https://assistant.example/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registration.json()) as { client_id: string };
    const authorize = async (headers: Record<string, string>) => {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      const response = await fetch(`${server.url}/oauth/authorize?${query}`, {
        headers,
        redirect: 'manual',
      });
      assert.equal(response.status, 302);
      return new URL(response.headers.get('location')!).searchParams;
    };
    for (let i = 0; i < 25; i++)
      assert.ok(
        (await authorize(await listed.sign(`${SITE}/oauth/authorize`))).get('code'),
        `signed authorization ${i + 1}`,
      );
    for (let i = 0; i < 20; i++)
      assert.ok((await authorize({})).get('code'), `unsigned authorization ${i + 1}`);
    const refused = await authorize({});
    assert.equal(refused.get('error'), 'temporarily_unavailable');
    assert.match(refused.get('error_description')!, /\(autorizacion\)/);
    assert.ok(
      (await authorize(await listed.sign(`${SITE}/oauth/authorize`))).get('code'),
      "the agent's window is its own",
    );
  });
});

describe('the traffic report', () => {
  const PAGE = '/servicios/fontaneria/madrid/';

  test('a page, its twin and a document fetched with a valid signature are answered as any other', async () => {
    for (const path of [PAGE, '/servicios/fontaneria/madrid.md', '/llms.txt']) {
      const response = await get(await listed.sign(`${SITE}${path}`), path);
      assert.equal(response.status, 200, path);
      await response.arrayBuffer();
    }
  });

  test('counts the verified agent\'s API requests under its own family; pages, twins and documents go by their User-Agent (BENCHMARKS.md, "Signed agents on pages")', async () => {
    await server.close({ keepData: true });
    const counts = await countsOf(server, listed);
    assert.ok(counts.api! >= AGENT_QUOTA, `${counts.api} API requests counted`);
    assert.deepEqual(
      [counts.page, counts.markdown, counts.document],
      [undefined, undefined, undefined],
    );
  });
});

describe("a page never makes the server fetch an agent's keys", () => {
  test('a trusted agent whose first request is a page: its directory is not fetched', async () => {
    const fresh = await startSigningAgent();
    const other = await startConfiguredServer({
      signedAgents: {
        policy: { name: 'agente-firmado', quota: 600 },
        trusted: { [fresh.origin]: {} },
        unlisted: 'anonymous',
      },
    });
    try {
      const page = await fetch(`${other.url}/servicios/fontaneria/madrid/`, {
        headers: await fresh.sign(`${SITE}/servicios/fontaneria/madrid/`),
      });
      assert.equal(page.status, 200);
      await page.arrayBuffer();
    } finally {
      await other.close();
      await fresh.close();
    }
    assert.equal(fresh.connections, 0);
  });
});
