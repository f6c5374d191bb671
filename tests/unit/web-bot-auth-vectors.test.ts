/**
 * The Web Bot Auth drafts' Ed25519 test vectors (as published with Cloudflare's web-bot-auth, test_data
 * web_bot_auth_architecture_v1.json and _v2.json: the RFC 9421 B.1.4 key, signing for
 * https://example.com) through the server's whole verification path: the Signature-Agent of both
 * drafts, the RFC 7638 thumbprint as keyid, the nonce taken once in a real store. The agent's https
 * directory cannot be served here, so the key set is handed in as its cache would hold it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readKeyDirectory } from '../../packages/astro-agent-api/src/server/signed-agents/key-directory.ts';
import { createSignedAgentVerifier } from '../../packages/astro-agent-api/src/server/signed-agents/verify-signed-agent.ts';
import { openSqliteStore } from '../../packages/astro-agent-api/src/store/sqlite-store.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';

/** RFC 9421 §B.1.4 test-key-ed25519, public part. */
const RFC_9421_ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
const AGENT = 'https://signature-agent.test';
const CREATED_MS = 1735689600000;

const VECTORS = [
  {
    name: 'draft -00: Signature-Agent as one string',
    headers: {
      'Signature-Agent': '"https://signature-agent.test"',
      Signature: 'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:',
      'Signature-Input':
        'sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"',
    },
  },
  {
    name: 'draft -01: Signature-Agent as a Dictionary member',
    headers: {
      'Signature-Agent': 'agent2="https://signature-agent.test"',
      Signature: 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
      'Signature-Input':
        'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
    },
  },
];

let root: string;
let store: Store;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-api-wba-'));
  store = openSqliteStore(join(root, 'store.db'));
});
after(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

function verifierFor(siteOrigin: string, trusted: Record<string, object> = { [AGENT]: {} }) {
  return createSignedAgentVerifier({
    store,
    directories: {
      get: async (url) => {
        assert.equal(url.href, `${AGENT}/.well-known/http-message-signatures-directory`);
        return readKeyDirectory({ keys: [RFC_9421_ED25519] });
      },
    },
    siteOrigin,
    options: { policy: { name: 'signed-agent', quota: 600 }, trusted, unlisted: 'anonymous' },
    now: () => CREATED_MS + 10_000,
  });
}

for (const vector of VECTORS) {
  test(`${vector.name}: verified once, as the agent; a replay, another site or an unlisted agent prove nothing`, async () => {
    const request = () => new Request('http://localhost/path/to/resource', { headers: vector.headers });
    assert.equal(await verifierFor('https://other.example')(request()), undefined, "@authority is another site's");
    assert.equal(await verifierFor('https://example.com', {})(request()), undefined, 'an unlisted agent');
    assert.deepEqual(await verifierFor('https://example.com')(request()), { origin: AGENT, policy: { name: 'signed-agent', quota: 600 } });
    assert.equal(await verifierFor('https://example.com')(request()), undefined, 'the same nonce again');
  });
}

test('the RFC 7638 thumbprint of the RFC 9421 key is the keyid the vectors name', async () => {
  assert.deepEqual([...(await readKeyDirectory({ keys: [RFC_9421_ED25519, { kty: 'RSA', n: 'x', e: 'AQAB' }] })).keys()], ['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U']);
  await assert.rejects(readKeyDirectory({ keys: [{ ...RFC_9421_ED25519, d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }] }), /private key/);
  await assert.rejects(readKeyDirectory({ keys: [] }), /no Ed25519 key/);
  await assert.rejects(readKeyDirectory('not a set'), /not a JWK Set/);
});
