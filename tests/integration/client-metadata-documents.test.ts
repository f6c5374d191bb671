/**
 * Issue 30, "Done when" 3, over real HTTP: a client identified by a Client ID Metadata Document (its
 * client_id the URL of its metadata, served on a loopback port the site lists) authenticates with
 * private_key_jwt (RFC 7523), gets a token and the identified quota; the MCP SDK's client does it
 * unmodified (PrivateKeyJwtProvider). Forged, replayed and expired assertions and bad documents are
 * refused as invalid_client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  auth,
  Client,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { SignJWT, type JWK } from 'jose';
import { startConfiguredServer } from '../helpers/configured-server.ts';
import { startDocumentHost, type DocumentHost } from '../helpers/document-host.ts';
import type { TestServer } from '../helpers/server.ts';

/** The address the build publishes (the issuer); the test server listens elsewhere. */
const SITE = 'http://localhost:4321';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

let host: DocumentHost;
let server: TestServer;
let privateJwk: JWK;
let clientId: string;

async function generateKey(): Promise<JWK> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  return (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JWK;
}

const publicOf = ({ kty, crv, x }: JWK) => ({ kty, crv, x, kid: 'k1' });

before(async () => {
  host = await startDocumentHost();
  privateJwk = await generateKey();
  clientId = `${host.origin}/clients/mcp-agent.json`;
  host.documents.set('/clients/mcp-agent.json', {
    body: {
      client_id: clientId,
      client_name: 'MCP agent by metadata document',
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      jwks: { keys: [publicOf(privateJwk)] },
    },
    headers: { 'cache-control': 'max-age=3600' },
  });
  // Behind one proxy: the registrations below come from networks of their own, each under its limit.
  server = await startConfiguredServer({ clientMetadataDocuments: [host.origin], trustProxy: 1 });
});
after(async () => {
  await server?.close();
  await host?.close();
});

async function assertion({
  key = privateJwk,
  id = clientId,
  lifetime = 120,
  audience = `${SITE}/oauth/token`,
} = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ jti: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setIssuer(id)
    .setSubject(id)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .sign(
      await crypto.subtle.importKey('jwk', key as JsonWebKey, { name: 'Ed25519' }, false, ['sign']),
    );
}

function tokenRequest(fields: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }).toString(),
  });
}

describe('a client known by its metadata document, authenticating with private_key_jwt', () => {
  test('the discovery document says so', async () => {
    const metadata = (await (
      await fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.deepEqual(metadata.token_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ]);
    assert.ok(
      (metadata.token_endpoint_auth_signing_alg_values_supported as string[]).includes('EdDSA'),
    );
  });

  test('gets a token and the identified quota; the transcript shows the exchange', async () => {
    const jwt = await assertion();
    const fields = {
      client_id: clientId,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: jwt,
      scope: 'content:read quota:read',
    };
    const response = await tokenRequest(fields);
    const body = (await response.json()) as {
      access_token: string;
      scope: string;
      expires_in: number;
    };
    console.log(
      `POST ${SITE}/oauth/token\n  Content-Type: application/x-www-form-urlencoded\n  ${new URLSearchParams({ grant_type: 'client_credentials', ...fields })}\n` +
        `→ ${response.status} cache-control: ${response.headers.get('cache-control')}\n  ${JSON.stringify({ ...body, access_token: `${body.access_token.slice(0, 12)}…` })}`,
    );
    assert.equal(response.status, 200);
    assert.equal(body.scope, 'content:read quota:read');
    const quota = await fetch(`${server.url}/api/v1/quota`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    assert.equal(quota.status, 200);
    const read = (await quota.json()) as { client_id: string; policy: string; limit: number };
    assert.equal(read.client_id, clientId);
    assert.equal(read.policy, 'identificado');
    assert.equal(read.limit, 600);
  });

  test("the MCP SDK's client does it unmodified: PrivateKeyJwtProvider, then a tool call with the token", async () => {
    const transcript: string[] = [];
    const fetchFn = async (
      input: string | URL | Request,
      init?: RequestInit,
    ): Promise<Response> => {
      const url = String(input instanceof Request ? input.url : input);
      const response = await fetch(url.replace(SITE, server.url), init);
      const body =
        init?.body instanceof URLSearchParams
          ? init.body
          : new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
      const how = body.has('client_assertion')
        ? ' [private_key_jwt]'
        : new Headers(init?.headers).has('authorization')
          ? ' [Bearer]'
          : '';
      transcript.push(`${init?.method ?? 'GET'} ${url}${how} → ${response.status}`);
      return response;
    };
    const provider = new PrivateKeyJwtProvider({
      clientId,
      privateKey: privateJwk as Record<string, unknown>,
      algorithm: 'EdDSA',
      expectedIssuer: SITE,
      scope: 'content:read quota:read',
    });
    assert.equal(await auth(provider, { serverUrl: `${SITE}/mcp`, fetchFn }), 'AUTHORIZED');
    const mcp = new Client({ name: 'cimd-client', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${SITE}/mcp`), {
        authProvider: provider,
        fetch: fetchFn,
      }),
    );
    const quota = (await mcp.callTool({ name: 'get_quota', arguments: {} })) as {
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    };
    await mcp.close();
    console.log(`MCP SDK v2 PrivateKeyJwtProvider, transcript:\n  ${transcript.join('\n  ')}`);
    assert.notEqual(quota.isError, true, JSON.stringify(quota));
    assert.equal(quota.structuredContent!.client_id, clientId);
    assert.equal(quota.structuredContent!.policy, 'identificado');
    assert.ok(
      transcript.some(
        (line) =>
          line.startsWith(`POST ${SITE}/oauth/token [private_key_jwt]`) && line.endsWith('200'),
      ),
    );
  });

  test('the document was fetched once and kept', () => {
    assert.equal(host.hits.get('/clients/mcp-agent.json'), 1);
  });
});

describe('a connector known by its metadata document: a public client of the authorization code grant', () => {
  const path = '/clients/connector.json';
  let documentId: string;
  before(() => {
    documentId = `${host.origin}${path}`;
    host.documents.set(path, {
      body: {
        client_id: documentId,
        client_name: 'Connector by document',
        redirect_uris: ['http://127.0.0.1:7777/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      headers: { 'cache-control': 'max-age=3600' },
    });
  });

  async function authorize(fields: Record<string, string>): Promise<Response> {
    return fetch(
      `${server.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: documentId, code_challenge_method: 'S256', ...fields })}`,
      { redirect: 'manual' },
    );
  }

  test("no registration: the document URL is the client_id; authorize, exchange, refresh; the quota is the grant's", async () => {
    const verifier = crypto.randomUUID().repeat(2);
    const challenge = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
    ).toString('base64url');
    const answered = await authorize({
      redirect_uri: 'http://127.0.0.1:40001/callback',
      code_challenge: challenge,
      state: 's1',
    });
    assert.equal(answered.status, 302, await answered.clone().text());
    const callback = new URL(answered.headers.get('location')!);
    assert.equal(
      callback.origin,
      'http://127.0.0.1:40001',
      'a loopback redirect URI of the document, on the port the request names',
    );
    const exchanged = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        code_verifier: verifier,
        redirect_uri: 'http://127.0.0.1:40001/callback',
        client_id: documentId,
      }),
    });
    assert.equal(exchanged.status, 200, await exchanged.clone().text());
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
    const quota = (await (
      await fetch(`${server.url}/api/v1/quota`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      })
    ).json()) as { client_id: string; policy: string };
    assert.deepEqual([quota.client_id, quota.policy], [documentId, 'identificado']);
    const refreshed = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: documentId,
      }),
    });
    assert.equal(refreshed.status, 200);
    assert.equal(host.hits.get(path), 1, 'the document was fetched once and kept');
  });

  test('a redirect URI the document does not list, or a document that names another client_id, is a JSON 400', async () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const elsewhere = await authorize({
      redirect_uri: 'https://evil.example/callback',
      code_challenge: challenge,
    });
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.headers.get('location'), null);
    assert.match(
      ((await elsewhere.json()) as { error_description: string }).error_description,
      /not one the client .* registered/,
    );
    host.documents.set('/clients/liar.json', {
      body: {
        client_id: `${host.origin}/clients/other.json`,
        redirect_uris: ['http://127.0.0.1:7777/callback'],
        token_endpoint_auth_method: 'none',
      },
    });
    const liar = await fetch(
      `${server.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: `${host.origin}/clients/liar.json`, code_challenge: challenge, code_challenge_method: 'S256' })}`,
      {
        redirect: 'manual',
      },
    );
    assert.equal(liar.status, 400);
    const body = (await liar.json()) as { error: string; error_description: string };
    assert.deepEqual(
      [body.error, /is not its URL/.test(body.error_description)],
      ['invalid_client', true],
    );
  });
});

describe('what is refused, as invalid_client', () => {
  async function refused(fields: Record<string, string>, why: RegExp): Promise<void> {
    const response = await tokenRequest(fields);
    assert.equal(response.status, 401, JSON.stringify(fields));
    const body = (await response.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_client');
    assert.match(body.error_description, why);
  }
  const withAssertion = (jwt: string) => ({
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: jwt,
  });

  test('a replayed assertion: its jti is taken', async () => {
    const jwt = await assertion();
    assert.equal((await tokenRequest(withAssertion(jwt))).status, 200);
    await refused(withAssertion(jwt), /already used/);
  });

  test('expired, too long-lived, for another audience, signed by another key, or with HMAC', async () => {
    await refused(withAssertion(await assertion({ lifetime: -120 })), /not valid/);
    await refused(withAssertion(await assertion({ lifetime: 7200 })), /more than 600 s/);
    await refused(
      withAssertion(await assertion({ audience: 'https://elsewhere.example/oauth/token' })),
      /not valid/,
    );
    await refused(withAssertion(await assertion({ key: await generateKey() })), /not valid/);
    const hmac = await new SignJWT({ jti: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(SITE)
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    await refused(withAssertion(hmac), /not valid/);
  });

  test('a client_id that is no document this site takes', async () => {
    const key = privateJwk;
    await refused(
      withAssertion(await assertion({ key, id: 'https://unlisted.example/client.json' })),
      /Unknown client/,
    );
    await refused(withAssertion(await assertion({ key, id: `${host.origin}/` })), /Unknown client/);
    await refused(
      withAssertion(await assertion({ key, id: 'agt_ci_registered' })),
      /Unknown client/,
    );
    await refused(
      { ...withAssertion(await assertion()), client_id: `${host.origin}/other.json` },
      /differs/,
    );
  });

  test('documents that lie about themselves, carry a secret, are too large, too slow or missing', async () => {
    const cases: [string, Parameters<DocumentHost['documents']['set']>[1], RegExp][] = [
      [
        '/lies.json',
        {
          body: {
            client_id: `${host.origin}/someone-else.json`,
            token_endpoint_auth_method: 'private_key_jwt',
            jwks: { keys: [publicOf(privateJwk)] },
          },
        },
        /is not its URL/,
      ],
      [
        '/secret.json',
        {
          body: {
            client_id: `${host.origin}/secret.json`,
            client_secret: 's',
            token_endpoint_auth_method: 'private_key_jwt',
            jwks: { keys: [publicOf(privateJwk)] },
          },
        },
        /secret/,
      ],
      [
        '/basic.json',
        {
          body: {
            client_id: `${host.origin}/basic.json`,
            token_endpoint_auth_method: 'client_secret_basic',
            jwks: { keys: [publicOf(privateJwk)] },
          },
        },
        /private_key_jwt/,
      ],
      [
        '/huge.json',
        {
          body: {
            client_id: `${host.origin}/huge.json`,
            token_endpoint_auth_method: 'private_key_jwt',
            jwks: { keys: [publicOf(privateJwk)] },
            padding: 'x'.repeat(100_000),
          },
        },
        /more than 65536 bytes/,
      ],
      ['/slow.json', { body: {}, delayMs: 5_000 }, /did not answer within 3000 ms/],
      ['/gone.json', { body: {}, status: 404 }, /answered 404/],
      [
        '/moved.json',
        { body: {}, status: 302, headers: { location: '/clients/mcp-agent.json' } },
        /redirect, not followed/,
      ],
    ];
    for (const [path, document, why] of cases) {
      host.documents.set(path, document);
      const id = `${host.origin}${path}`;
      await refused(withAssertion(await assertion({ id })), why);
    }
  });

  test('one method at a time: an assertion with a secret is invalid_request', async () => {
    const response = await tokenRequest({
      ...withAssertion(await assertion()),
      client_secret: 'x',
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_request');
  });
});

describe('a client registered with private_key_jwt (RFC 7591 §2, RFC 7523): no secret, the same assertions', () => {
  let network = 0;
  function register(metadata: Record<string, unknown>): Promise<Response> {
    const headers = {
      'content-type': 'application/json',
      'x-forwarded-for': `198.51.100.${++network}`,
    };
    return fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify(metadata),
    });
  }
  async function registerWithKey(
    keys: Record<string, unknown>,
  ): Promise<{ client_id: string } & Record<string, unknown>> {
    const response = await register({
      client_name: 'agent with a key',
      token_endpoint_auth_method: 'private_key_jwt',
      ...keys,
    });
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json()) as { client_id: string } & Record<string, unknown>;
  }
  const withAssertion = (jwt: string) => ({
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: jwt,
  });

  test('register → assertion → token → a bearer call; the registration answer carries the keys and no secret', async () => {
    const registered = await registerWithKey({ jwks: { keys: [publicOf(privateJwk)] } });
    assert.equal(registered.token_endpoint_auth_method, 'private_key_jwt');
    assert.equal('client_secret' in registered, false);
    assert.equal('client_secret_expires_at' in registered, false);
    assert.deepEqual(registered.jwks, { keys: [publicOf(privateJwk)] });
    const issued = await tokenRequest({
      client_id: registered.client_id,
      ...withAssertion(await assertion({ id: registered.client_id })),
    });
    assert.equal(issued.status, 200);
    const { access_token: token } = (await issued.json()) as { access_token: string };
    const quota = await fetch(`${server.url}/api/v1/quota`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(quota.status, 200);
    const read = (await quota.json()) as { client_id: string; policy: string };
    assert.deepEqual([read.client_id, read.policy], [registered.client_id, 'identificado']);
    // Introspection authenticates the client the same way.
    const introspected = await fetch(`${server.url}/oauth/introspect`, {
      method: 'POST',
      body: new URLSearchParams({
        token,
        ...withAssertion(await assertion({ id: registered.client_id })),
      }),
    });
    assert.equal(((await introspected.json()) as { active: boolean }).active, true);
  });

  test("the MCP SDK's PrivateKeyJwtProvider gets a token for a registered client, unmodified", async () => {
    const registered = await registerWithKey({ jwks: { keys: [publicOf(privateJwk)] } });
    const fetchFn = (input: string | URL | Request, init?: RequestInit) =>
      fetch(String(input instanceof Request ? input.url : input).replace(SITE, server.url), init);
    const provider = new PrivateKeyJwtProvider({
      clientId: registered.client_id,
      privateKey: privateJwk as Record<string, unknown>,
      algorithm: 'EdDSA',
      expectedIssuer: SITE,
    });
    assert.equal(await auth(provider, { serverUrl: `${SITE}/mcp`, fetchFn }), 'AUTHORIZED');
    assert.match((await provider.tokens())!.access_token, /^agt_at_/);
  });

  test('keys published at a jwks_uri are fetched when the client authenticates', async () => {
    host.documents.set('/keys/registered.json', { body: { keys: [publicOf(privateJwk)] } });
    const registered = await registerWithKey({ jwks_uri: `${host.origin}/keys/registered.json` });
    assert.equal(registered.jwks_uri, `${host.origin}/keys/registered.json`);
    assert.equal(host.hits.get('/keys/registered.json'), undefined, 'not fetched at registration');
    const issued = await tokenRequest(withAssertion(await assertion({ id: registered.client_id })));
    assert.equal(issued.status, 200);
    assert.equal(host.hits.get('/keys/registered.json'), 1);
  });

  test('a wrong key, a secret, or an assertion for a client with a secret: invalid_client, saying why', async () => {
    const registered = await registerWithKey({ jwks: { keys: [publicOf(privateJwk)] } });
    const expectRefusal = async (
      fields: Record<string, string>,
      why: RegExp,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }),
      });
      assert.equal(response.status, 401);
      const body = (await response.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_client');
      assert.match(body.error_description, why);
    };
    await expectRefusal(
      withAssertion(await assertion({ id: registered.client_id, key: await generateKey() })),
      /not valid/,
    );
    await expectRefusal(
      { client_id: registered.client_id, client_secret: 'agt_cs_guessed' },
      /has no secret/,
    );
    await expectRefusal({}, /has no secret/, {
      authorization: `Basic ${btoa(`${registered.client_id}:agt_cs_guessed`)}`,
    });
    const withSecret = (await (await register({ client_name: 'agent with a secret' })).json()) as {
      client_id: string;
      client_secret: string;
    };
    await expectRefusal(
      withAssertion(await assertion({ id: withSecret.client_id })),
      /authenticates with its client secret/,
    );
    // The secret client still authenticates with its secret.
    assert.equal(
      (
        await tokenRequest({
          client_id: withSecret.client_id,
          client_secret: withSecret.client_secret,
        })
      ).status,
      200,
    );
  });

  test('metadata that cannot work is refused at registration as invalid_client_metadata', async () => {
    const key = publicOf(privateJwk);
    for (const [metadata, why] of [
      [{ token_endpoint_auth_method: 'private_key_jwt' }, /needs its public keys/],
      [
        {
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [key] },
          jwks_uri: `${host.origin}/keys.json`,
        },
        /one of the two/,
      ],
      [
        { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [privateJwk] } },
        /private key material/,
      ],
      [
        {
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] },
        },
        /kty OKP, EC or RSA/,
      ],
      [{ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [] } }, /no key/],
      [
        {
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: Array.from({ length: 6 }, () => key) },
        },
        /more than 5 keys/,
      ],
      [{ token_endpoint_auth_method: 'private_key_jwt', jwks: [key] }, /JWK Set/],
      [
        {
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: 'http://keys.example/jwks.json',
        },
        /https/,
      ],
      [{ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'not a url' }, /https URL/],
      [
        { token_endpoint_auth_method: 'client_secret_basic', jwks: { keys: [key] } },
        /authenticates with its secret/,
      ],
      [
        { token_endpoint_auth_method: 'tls_client_auth' },
        /must be one of client_secret_basic, client_secret_post, private_key_jwt/,
      ],
    ] as const) {
      const response = await register({ client_name: 'refused', ...metadata });
      assert.equal(response.status, 400, JSON.stringify(metadata));
      const body = (await response.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_client_metadata', JSON.stringify(metadata));
      assert.match(body.error_description, why, JSON.stringify(metadata));
    }
  });
});
