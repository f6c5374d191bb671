/**
 * The Web Bot Auth drafts' Ed25519 test vectors (as published with Cloudflare's web-bot-auth, test_data
 * web_bot_auth_architecture_v1.json and _v2.json, and in draft-ietf-webbotauth-httpsig-protocol's Test
 * Vectors: the RFC 9421 B.1.4 key, signing for https://example.com) through the server's whole
 * verification path: the legacy string Signature-Agent and the Dictionary member, the RFC 7638
 * thumbprint as keyid, the nonce taken once in a real store, and the draft's three outcomes. The
 * agent's https documents cannot be served here, so the key sets are handed in as their caches would
 * hold them.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { component, createSignature, webcrypto } from 'http-message-sig';
import {
  readAgentMetadataKeys,
  readKeyDirectory,
} from '../../packages/astro-agent-api/src/server/signed-agents/key-directory.ts';
import { buildWebBotAuthField } from '../../packages/astro-agent-api/src/server/signed-agents/report-outcome.ts';
import { createSignedAgentVerifier } from '../../packages/astro-agent-api/src/server/signed-agents/verify-signed-agent.ts';
import { openSqliteStore } from '../../packages/astro-agent-api/src/store/sqlite-store.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';

/** RFC 9421 §B.1.4 test-key-ed25519, public part. */
const RFC_9421_ED25519 = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
};
const AGENT = 'https://signature-agent.test';
const CREATED_MS = 1735689600000;

const VECTORS = [
  {
    name: 'the legacy Signature-Agent, one string',
    headers: {
      'Signature-Agent': '"https://signature-agent.test"',
      Signature:
        'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:',
      'Signature-Input':
        'sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"',
    },
  },
  {
    name: 'Signature-Agent as a Dictionary member (type directory by default)',
    headers: {
      'Signature-Agent': 'agent2="https://signature-agent.test"',
      Signature:
        'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
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
  test(`${vector.name}: verified once, as the agent; a replay or another site is invalid, an unlisted agent unverified`, async () => {
    const request = () =>
      new Request('http://localhost/path/to/resource', { headers: vector.headers });
    assert.equal(
      (await verifierFor('https://other.example')(request()))?.outcome,
      'invalid',
      "@authority is another site's",
    );
    assert.deepEqual(await verifierFor('https://example.com', {})(request()), {
      outcome: 'unverified',
      reason: 'agent not checked by this site',
    });
    assert.deepEqual(await verifierFor('https://example.com')(request()), {
      outcome: 'verified',
      agent: { id: AGENT, policy: { name: 'signed-agent', quota: 600 } },
    });
    assert.deepEqual(
      await verifierFor('https://example.com')(request()),
      { outcome: 'invalid', reason: 'signature already used' },
      'the same nonce again',
    );
  });
}

test('the RFC 7638 thumbprint of the RFC 9421 key is the keyid the vectors name', async () => {
  assert.deepEqual(
    [
      ...(
        await readKeyDirectory({ keys: [RFC_9421_ED25519, { kty: 'RSA', n: 'x', e: 'AQAB' }] })
      ).keys(),
    ],
    ['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'],
  );
  await assert.rejects(
    readKeyDirectory({
      keys: [{ ...RFC_9421_ED25519, d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }],
    }),
    /private key/,
  );
  await assert.rejects(readKeyDirectory({ keys: [] }), /no Ed25519 key/);
  await assert.rejects(readKeyDirectory('not a set'), /not a JWK Set/);
});

/** The RFC 9421 §B.1.4 key with its (published) private part: it signs the typed vectors below as the draft signs its own. */
const RFC_9421_ED25519_PRIVATE = {
  ...RFC_9421_ED25519,
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
};
const KEYID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U';
let nonce = 0;

/** Signed headers for https://example.com, the Signature-Agent member `agent` covered by its key, as draft -02 writes them. */
async function signTyped(
  signatureAgent: string,
  components: string[] = ['@authority'],
  tag = 'web-bot-auth',
): Promise<Record<string, string>> {
  const privateKey = await crypto.subtle.importKey(
    'jwk',
    RFC_9421_ED25519_PRIVATE,
    { name: 'Ed25519' },
    false,
    ['sign'],
  );
  const fields = await createSignature(
    new Request('https://example.com/path/to/resource', {
      headers: { 'Signature-Agent': signatureAgent },
    }),
    {
      label: 'sig1',
      components: [...components, component('signature-agent', { key: 'agent' })],
      parameters: {
        created: CREATED_MS / 1000,
        expires: CREATED_MS / 1000 + 300,
        keyid: KEYID,
        nonce: `n${nonce++}`,
        ...(tag && { tag }),
      },
      signer: webcrypto.signer(privateKey),
    },
  );
  return {
    'Signature-Agent': signatureAgent,
    Signature: fields.signature,
    'Signature-Input': fields.signatureInput,
  };
}

/** A verifier whose fetches are recorded: each URL asked for, and the key sets and documents they hold. */
function typedVerifier(trusted: Record<string, object>, sets: Record<string, unknown> = {}) {
  const fetched: string[] = [];
  const fetchFrom = async (url: URL) => {
    fetched.push(url.href);
    if (!(url.href in sets)) throw new Error(`${url.href} is out of reach`);
    return sets[url.href];
  };
  const verify = createSignedAgentVerifier({
    store,
    directories: { get: async (url) => readKeyDirectory(await fetchFrom(url)) },
    metadataDocuments: { get: async (url) => readAgentMetadataKeys(await fetchFrom(url), url) },
    siteOrigin: 'https://example.com',
    options: { policy: { name: 'signed-agent', quota: 600 }, trusted, unlisted: 'anonymous' },
    now: () => CREATED_MS + 10_000,
  });
  return {
    fetched,
    verify: async (headers: Record<string, string>) =>
      verify(new Request('http://localhost/path/to/resource', { headers })),
  };
}

describe('draft -02: a typed Signature-Agent member', () => {
  const KEYS = { keys: [RFC_9421_ED25519] };

  test('type=jwks_uri: the JWK Set is fetched as sent; the agent is that URL without its query', async () => {
    const { fetched, verify } = typedVerifier(
      { 'https://agent.test/keys/jwks.json': {} },
      { 'https://agent.test/keys/jwks.json?v=3': KEYS },
    );
    const check = await verify(
      await signTyped('agent="https://agent.test/keys/jwks.json?v=3";type=jwks_uri'),
    );
    assert.deepEqual(check, {
      outcome: 'verified',
      agent: {
        id: 'https://agent.test/keys/jwks.json',
        policy: { name: 'signed-agent', quota: 600 },
      },
    });
    assert.deepEqual(fetched, ['https://agent.test/keys/jwks.json?v=3']);
  });

  test('type=cimd: the keys of a Client ID Metadata Document, inline (jwks) or at its jwks_uri', async () => {
    const inline = typedVerifier(
      { 'https://agent.test/client.json': {} },
      {
        'https://agent.test/client.json': {
          client_id: 'https://agent.test/client.json',
          jwks: KEYS,
        },
      },
    );
    assert.equal(
      (await inline.verify(await signTyped('agent="https://agent.test/client.json";type=cimd')))
        ?.outcome,
      'verified',
    );
    const linked = typedVerifier(
      { 'https://agent.test/client.json': {} },
      {
        'https://agent.test/client.json': {
          client_id: 'https://agent.test/client.json',
          jwks_uri: 'https://keys.agent.test/set',
        },
        'https://keys.agent.test/set': KEYS,
      },
    );
    assert.equal(
      (await linked.verify(await signTyped('agent="https://agent.test/client.json";type=cimd')))
        ?.outcome,
      'verified',
    );
    assert.deepEqual(linked.fetched, [
      'https://agent.test/client.json',
      'https://keys.agent.test/set',
    ]);
    // A document that is not its own URL's names no keys.
    const foreign = typedVerifier(
      { 'https://agent.test/client.json': {} },
      {
        'https://agent.test/client.json': {
          client_id: 'https://other.test/client.json',
          jwks: KEYS,
        },
      },
    );
    assert.deepEqual(
      await foreign.verify(await signTyped('agent="https://agent.test/client.json";type=cimd')),
      { outcome: 'unverified', reason: 'agent keys out of reach' },
    );
  });

  test('type=directory (explicit): the origin, its well-known directory', async () => {
    const { fetched, verify } = typedVerifier(
      { 'https://agent.test': {} },
      { 'https://agent.test/.well-known/http-message-signatures-directory': KEYS },
    );
    assert.equal(
      (await verify(await signTyped('agent="https://agent.test";type=directory')))?.outcome,
      'verified',
    );
    assert.deepEqual(fetched, ['https://agent.test/.well-known/http-message-signatures-directory']);
    assert.equal(
      (await verify(await signTyped('agent="https://agent.test/some/path";type=directory')))
        ?.outcome,
      'invalid',
      'a directory member is an origin',
    );
  });

  test('@target-uri binds a signature to this site as @authority does; a signature covering neither proves nothing', async () => {
    const { verify } = typedVerifier(
      { 'https://agent.test': {} },
      { 'https://agent.test/.well-known/http-message-signatures-directory': KEYS },
    );
    assert.equal(
      (await verify(await signTyped('agent="https://agent.test"', ['@target-uri'])))?.outcome,
      'verified',
    );
    assert.equal(
      (await verify(await signTyped('agent="https://agent.test"', ['@method', '@path'])))?.outcome,
      'invalid',
    );
  });

  test('unverified when the keys cannot be had, the keyid is not among them, the type is unknown or the agent is not checked; no outcome without the tag', async () => {
    const reached = typedVerifier(
      { 'https://agent.test': {} },
      {
        'https://agent.test/.well-known/http-message-signatures-directory': {
          keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(43) }],
        },
      },
    );
    assert.deepEqual(await reached.verify(await signTyped('agent="https://agent.test"')), {
      outcome: 'unverified',
      reason: 'keyid not among the agent keys',
    });
    const unreachable = typedVerifier({ 'https://agent.test': {} });
    assert.deepEqual(await unreachable.verify(await signTyped('agent="https://agent.test"')), {
      outcome: 'unverified',
      reason: 'agent keys out of reach',
    });
    assert.deepEqual(
      await unreachable.verify(await signTyped('agent="https://agent.test/x";type=ldap')),
      { outcome: 'unverified', reason: 'Signature-Agent type not supported' },
    );
    assert.deepEqual(await unreachable.verify(await signTyped('agent="https://stranger.test"')), {
      outcome: 'unverified',
      reason: 'agent not checked by this site',
    });
    assert.equal(
      unreachable.fetched.filter((url) => url.includes('stranger')).length,
      0,
      'an agent the site does not check: its keys are never fetched',
    );
    assert.equal(
      await unreachable.verify(await signTyped('agent="https://agent.test"', ['@authority'], '')),
      undefined,
      'not a Web Bot Auth signature (no tag)',
    );
  });
});

test('the Web-Bot-Auth response field: the outcome as a token, the agent or the reason as a parameter, in printable ASCII', () => {
  assert.equal(buildWebBotAuthField(undefined), undefined);
  assert.equal(
    buildWebBotAuthField({ clientId: 'x', scopes: [], anonymous: true }),
    undefined,
    'no signature, no field',
  );
  const agent = { id: 'https://chatgpt.com' };
  assert.equal(
    buildWebBotAuthField({
      clientId: agent.id,
      scopes: [],
      anonymous: true,
      agent,
      signature: { outcome: 'verified' },
    }),
    'verified;agent="https://chatgpt.com"',
  );
  assert.equal(
    buildWebBotAuthField({
      clientId: '192.0.2.1',
      scopes: [],
      anonymous: true,
      signature: { outcome: 'invalid', reason: 'Signature is too old' },
    }),
    'invalid;reason="Signature is too old"',
  );
  assert.equal(
    buildWebBotAuthField({
      clientId: '192.0.2.1',
      scopes: [],
      anonymous: true,
      signature: { outcome: 'unverified', reason: 'año "x"\n' },
    }),
    'unverified;reason="a?o \\"x\\"?"',
  );
});
