import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { createCallerResolver } from '../../packages/astro-agent-api/src/server/caller.ts';
import type { ApiError } from '../../packages/astro-agent-api/src/contract/api-error.ts';
import { fetchFrom } from '../helpers/fetch-from.ts';
import {
  assertOAuthError,
  basic,
  createOAuthHarness as createHarness,
  form,
  type Registered,
  SITE,
} from '../helpers/oauth-harness.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const METADATA = `${SITE}/.well-known/oauth-protected-resource/api/v1`;
describe('OAuth handlers (web-standard Request → Response over a real sqlite store)', () => {
  let h: ReturnType<typeof createHarness>;
  beforeEach(async () => {
    h = createHarness();
    await h.open();
  });
  afterEach(() => h.close());

  test('register → token (basic and post) → introspect → bearer accepted → revoke → inactive and refused', async () => {
    const registration = await h.call(
      'register',
      JSON.stringify({
        client_name: 'Mi agente',
        contacts: ['ops@example.com'],
        logo_uri: 'https://x.test/l.png',
        foo: 1,
      }),
      { type: 'application/json' },
    );
    assert.equal(registration.status, 201);
    assert.equal(registration.headers.get('cache-control'), 'no-store');
    assert.equal(registration.headers.get('pragma'), 'no-cache');
    const client = (await registration.json()) as Record<string, unknown> & Registered;
    assert.match(client.client_id, /^agt_ci_[A-Za-z0-9_-]{22}$/);
    assert.match(client.client_secret, /^agt_cs_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...client, client_id: 'x', client_secret: 'x' },
      {
        client_id: 'x',
        client_secret: 'x',
        client_id_issued_at: Math.floor(h.clock / 1000),
        client_secret_expires_at: 0,
        client_name: 'Mi agente',
        contacts: ['ops@example.com'],
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'content:read quota:read',
      },
      'unknown metadata (logo_uri, foo) is ignored, not echoed',
    );

    const tokenResponse = await h.call('token', form({ grant_type: 'client_credentials' }), {
      headers: { authorization: basic(client.client_id, client.client_secret) },
    });
    assert.equal(tokenResponse.status, 200);
    assert.equal(tokenResponse.headers.get('cache-control'), 'no-store');
    assert.equal(tokenResponse.headers.get('pragma'), 'no-cache');
    const issued = (await tokenResponse.json()) as Record<string, unknown>;
    assert.match(String(issued.access_token), /^agt_at_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...issued, access_token: 'x' },
      {
        access_token: 'x',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'content:read quota:read',
      },
    );

    const viaPost = await h.call(
      'token',
      form({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope: 'quota:read',
      }),
    );
    assert.equal(viaPost.status, 200);
    const postToken = (await viaPost.json()) as Record<string, string>;
    assert.equal(postToken.scope, 'quota:read');
    assert.notEqual(postToken.access_token, issued.access_token);

    const token = String(issued.access_token);
    const introspection = await h.introspect(client, token);
    assert.deepEqual(introspection, {
      active: true,
      client_id: client.client_id,
      scope: 'content:read quota:read',
      token_type: 'Bearer',
      iat: Math.floor(h.clock / 1000),
      exp: Math.floor(h.clock / 1000) + 3600,
    });

    const resolveCaller = createCallerResolver({
      store: h.store,
      addresses: { trustProxy: 0, ipv6Prefix: 64 },
    });
    const authorized = new Request(`${SITE}/api/v1/quota`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(await resolveCaller(authorized, { clientAddress: '192.0.2.10' }, METADATA), {
      clientId: client.client_id,
      scopes: ['content:read', 'quota:read'],
      anonymous: false,
    });

    const revocation = await h.call('revoke', form({ token, token_type_hint: 'access_token' }), {
      headers: { authorization: basic(client.client_id, client.client_secret) },
    });
    assert.equal(revocation.status, 200);
    assert.deepEqual(await h.introspect(client, token), { active: false });
    await assert.rejects(
      resolveCaller(authorized, { clientAddress: '192.0.2.10' }, METADATA),
      (error: ApiError) => {
        assert.equal(error.status, 401);
        assert.equal(error.code, 'invalid_token');
        return true;
      },
    );
    assert.equal(
      (await h.introspect(client, postToken.access_token!)).active,
      true,
      'only the revoked token is gone',
    );
  });

  test('a client sees and revokes only its own tokens', async () => {
    const alice = await h.register({ client_name: 'Alice' });
    const bob = await h.register({ client_name: 'Bob' });
    const alicesToken = await h.token(alice);

    assert.deepEqual(await h.introspect(bob, alicesToken), { active: false });
    const revocation = await h.call('revoke', form({ token: alicesToken }), {
      headers: { authorization: basic(bob.client_id, bob.client_secret) },
    });
    assert.equal(revocation.status, 200, "another client's token: 200, and nothing changes");
    assert.equal((await h.introspect(alice, alicesToken)).active, true);

    for (const token of [`agt_at_${'A'.repeat(43)}`, 'not-even-a-token']) {
      assert.deepEqual(await h.introspect(alice, token), { active: false });
      const unknown = await h.call('revoke', form({ token }), {
        headers: { authorization: basic(alice.client_id, alice.client_secret) },
      });
      assert.equal(unknown.status, 200);
    }
  });

  test('an expired token is inactive and refused', async () => {
    const client = await h.register();
    const token = await h.token(client);
    h.clock += 3_600_000;
    assert.deepEqual(await h.introspect(client, token), { active: false });
    const resolveCaller = createCallerResolver({
      store: h.store,
      addresses: { trustProxy: 0, ipv6Prefix: 64 },
      now: () => h.clock,
    });
    await assert.rejects(
      resolveCaller(
        new Request(`${SITE}/api/v1/search_pages`, {
          headers: { authorization: `Bearer ${token}` },
        }),
        { clientAddress: '192.0.2.1' },
        METADATA,
      ),
      {
        status: 401,
        code: 'invalid_token',
      },
    );
  });

  describe('registration errors (RFC 7591 §3.2.2)', () => {
    const cases: Array<[string, unknown, string]> = [
      ['no client_name and no redirect_uris', { contacts: [] }, 'invalid_client_metadata'],
      ['empty client_name', { client_name: '   ' }, 'invalid_client_metadata'],
      [
        'client_name of 101 characters',
        { client_name: 'a'.repeat(101) },
        'invalid_client_metadata',
      ],
      ['client_name that is not a string', { client_name: 42 }, 'invalid_client_metadata'],
      [
        'client_name with control characters',
        { client_name: 'evil\nlog line' },
        'invalid_client_metadata',
      ],
      [
        'six contacts',
        {
          client_name: 'x',
          contacts: ['a@b.es', 'c@d.es', 'e@f.es', 'g@h.es', 'i@j.es', 'k@l.es'],
        },
        'invalid_client_metadata',
      ],
      [
        'a contact that is not an e-mail address',
        { client_name: 'x', contacts: ['not an email'] },
        'invalid_client_metadata',
      ],
      [
        'contacts that are not an array',
        { client_name: 'x', contacts: 'ops@example.com' },
        'invalid_client_metadata',
      ],
      [
        'grant_types with authorization_code but no redirect_uris',
        { client_name: 'x', grant_types: ['client_credentials', 'authorization_code'] },
        'invalid_redirect_uri',
      ],
      [
        'an unknown grant type',
        { client_name: 'x', grant_types: ['implicit'] },
        'invalid_client_metadata',
      ],
      ['empty grant_types', { client_name: 'x', grant_types: [] }, 'invalid_client_metadata'],
      [
        'refresh_token without authorization_code',
        { client_name: 'x', grant_types: ['client_credentials', 'refresh_token'] },
        'invalid_client_metadata',
      ],
      [
        'response_types code without the authorization_code grant',
        { client_name: 'x', response_types: ['code'] },
        'invalid_client_metadata',
      ],
      [
        'response_types token',
        { client_name: 'x', redirect_uris: ['https://app.example/cb'], response_types: ['token'] },
        'invalid_client_metadata',
      ],
      [
        'token_endpoint_auth_method private_key_jwt without keys',
        { client_name: 'x', token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
      [
        'a public client of client credentials',
        { client_name: 'x', token_endpoint_auth_method: 'none' },
        'invalid_client_metadata',
      ],
      [
        'an unknown scope',
        { client_name: 'x', scope: 'content:read admin' },
        'invalid_client_metadata',
      ],
      [
        'redirect_uris without the authorization_code grant',
        {
          client_name: 'x',
          grant_types: ['client_credentials'],
          redirect_uris: ['https://app.example/cb'],
        },
        'invalid_redirect_uri',
      ],
      [
        'an http redirect URI to a host that is not the loopback',
        { client_name: 'x', redirect_uris: ['http://app.example/cb'] },
        'invalid_redirect_uri',
      ],
      [
        'a redirect URI with a fragment',
        { client_name: 'x', redirect_uris: ['https://app.example/cb#x'] },
        'invalid_redirect_uri',
      ],
      [
        'a javascript: redirect URI',
        { client_name: 'x', redirect_uris: ['javascript:alert(1)'] },
        'invalid_redirect_uri',
      ],
      [
        'a relative redirect URI',
        { client_name: 'x', redirect_uris: ['/callback'] },
        'invalid_redirect_uri',
      ],
      [
        'eleven redirect URIs',
        {
          client_name: 'x',
          redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`),
        },
        'invalid_redirect_uri',
      ],
      ['a JSON array', [{ client_name: 'x' }], 'invalid_request'],
    ];
    for (const [name, metadata, error] of cases) {
      test(`${name} → 400 ${error}`, async () => {
        await assertOAuthError(
          await h.call('register', JSON.stringify(metadata), { type: 'application/json' }),
          400,
          error,
        );
      });
    }

    test('a client_name of exactly 100 characters (counted as characters, not bytes) and five contacts are accepted', async () => {
      const client = await h.register({
        client_name: `${'ñ'.repeat(99)}🙂`,
        contacts: ['a@b.es', 'c@d.es', 'e@f.es', 'g@h.es', 'i@j.es'],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['client_credentials'],
        scope: 'quota:read',
      });
      assert.equal(
        (client as unknown as Record<string, unknown>).token_endpoint_auth_method,
        'client_secret_post',
      );
      assert.equal((client as unknown as Record<string, unknown>).scope, 'quota:read');
    });

    test('malformed JSON, a wrong content type or no body → 400 invalid_request', async () => {
      await assertOAuthError(
        await h.call('register', '{"client_name":', { type: 'application/json' }),
        400,
        'invalid_request',
      );
      await assertOAuthError(
        await h.call('register', form({ client_name: 'x' })),
        400,
        'invalid_request',
      );
      await assertOAuthError(
        await h.call('register', JSON.stringify({ client_name: 'x' }), { type: '' }),
        400,
        'invalid_request',
      );
      await assertOAuthError(
        await h.call('register', undefined, { type: 'application/json' }),
        400,
        'invalid_request',
      );
    });

    test('a body over 16 KiB → 413 JSON, whether declared or streamed', async () => {
      const big = JSON.stringify({ client_name: 'x', padding: 'a'.repeat(17_000) });
      await assertOAuthError(
        await h.call('register', big, { type: 'application/json' }),
        413,
        'invalid_request',
      );
      const streamed = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 40; i++)
            controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
          controller.close();
        },
      });
      const request = new Request(`${SITE}/oauth/register`, {
        method: 'POST',
        body: streamed,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit);
      const response = await h.oauth.register(request, { clientAddress: '192.0.2.10' });
      await assertOAuthError(response, 413, 'invalid_request');
      assert.equal(
        response.headers.get('connection'),
        'close',
        'the unread rest of the body cannot precede another request',
      );
    });
  });

  test('5 registrations per hour per address, then 429 JSON with Retry-After; invalid requests do not count', async () => {
    await assertOAuthError(
      await h.call('register', '{"contacts":"x"}', { type: 'application/json' }),
      400,
      'invalid_client_metadata',
    );
    for (let i = 0; i < 5; i++) await h.register({ client_name: `agente ${i}` });
    const refused = await h.call('register', JSON.stringify({ client_name: 'sexto' }), {
      type: 'application/json',
    });
    await assertOAuthError(refused, 429, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '3600');
    assert.equal(refused.headers.get('ratelimit'), '"registro";r=0;t=3600');
    assert.equal(refused.headers.get('ratelimit-policy'), '"registro";q=5;w=3600');
    await h.register({ client_name: 'desde otra dirección' }, '198.51.100.7');
    h.clock += 3_600_000;
    await h.register({ client_name: 'una hora después' });
  });

  describe('token endpoint errors (RFC 6749 §5.2)', () => {
    let client: Registered;
    beforeEach(async () => {
      client = await h.register();
    });

    test('no client authentication → 401 invalid_client with WWW-Authenticate: Basic', async () => {
      const response = await h.call('token', form({ grant_type: 'client_credentials' }));
      await assertOAuthError(response, 401, 'invalid_client');
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm="[^"]+"/);
    });

    test('a wrong secret, an unknown client or malformed Basic credentials → 401 invalid_client', async () => {
      for (const authorization of [
        basic(client.client_id, `${client.client_secret}x`),
        basic('agt_ci_unknown', client.client_secret),
        basic(client.client_id, ''),
        'Basic !!!not-base64!!!',
        `Basic ${btoa('no colon here')}`,
        `Basic ${btoa(`${client.client_id}:%E0%A4%A`)}`,
        `Bearer ${client.client_secret}`,
      ]) {
        const response = await h.call('token', form({ grant_type: 'client_credentials' }), {
          headers: { authorization },
        });
        await assertOAuthError(response, 401, 'invalid_client');
        assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
      }
      const wrongPost = await h.call(
        'token',
        form({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: 'agt_cs_wrong',
        }),
      );
      await assertOAuthError(wrongPost, 401, 'invalid_client');
    });

    test('Basic credentials are form-urlencoded before base64 (RFC 6749 §2.3.1), and plain ones still work', async () => {
      await h.token(client);
      const plain = `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`;
      const response = await h.call('token', form({ grant_type: 'client_credentials' }), {
        headers: { authorization: plain },
      });
      assert.equal(response.status, 200);
    });

    test('basic and post at once → 400 invalid_request', async () => {
      const response = await h.call(
        'token',
        form({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
        }),
        {
          headers: { authorization: basic(client.client_id, client.client_secret) },
        },
      );
      await assertOAuthError(response, 400, 'invalid_request');
    });

    test('grant_type missing → invalid_request; another grant → unsupported_grant_type; unknown scope → invalid_scope', async () => {
      const auth = { headers: { authorization: basic(client.client_id, client.client_secret) } };
      await assertOAuthError(await h.call('token', form({}), auth), 400, 'invalid_request');
      await assertOAuthError(
        await h.call('token', form({ grant_type: 'password', username: 'u', password: 'p' }), auth),
        400,
        'unsupported_grant_type',
      );
      await assertOAuthError(
        await h.call(
          'token',
          form({ grant_type: 'authorization_code', code: 'x', code_verifier: 'v'.repeat(43) }),
          auth,
        ),
        400,
        'unauthorized_client',
      );
      await assertOAuthError(
        await h.call(
          'token',
          form({ grant_type: 'refresh_token', refresh_token: 'agt_rt_x' }),
          auth,
        ),
        400,
        'unauthorized_client',
      );
      await assertOAuthError(
        await h.call(
          'token',
          form({ grant_type: 'client_credentials', scope: 'content:write' }),
          auth,
        ),
        400,
        'invalid_scope',
      );
      await assertOAuthError(
        await h.call(
          'token',
          form({ grant_type: 'client_credentials', scope: 'content:read admin' }),
          auth,
        ),
        400,
        'invalid_scope',
      );
    });

    test("a scope outside the client's registered scope → invalid_scope", async () => {
      const narrow = await h.register({ client_name: 'solo cuota', scope: 'quota:read' });
      const response = await h.call(
        'token',
        form({ grant_type: 'client_credentials', scope: 'content:read' }),
        {
          headers: { authorization: basic(narrow.client_id, narrow.client_secret) },
        },
      );
      await assertOAuthError(response, 400, 'invalid_scope');
    });

    test('a repeated parameter, a JSON body or a missing content type → 400 invalid_request', async () => {
      const auth = { authorization: basic(client.client_id, client.client_secret) };
      await assertOAuthError(
        await h.call('token', 'grant_type=client_credentials&grant_type=client_credentials', {
          headers: auth,
        }),
        400,
        'invalid_request',
      );
      await assertOAuthError(
        await h.call('token', JSON.stringify({ grant_type: 'client_credentials' }), {
          headers: auth,
          type: 'application/json',
        }),
        400,
        'invalid_request',
      );
      await assertOAuthError(
        await h.call('token', 'grant_type=client_credentials', { headers: auth, type: '' }),
        400,
        'invalid_request',
      );
    });

    test('revoke and introspect need client authentication and a token parameter', async () => {
      for (const endpoint of ['revoke', 'introspect'] as const) {
        await assertOAuthError(
          await h.call(endpoint, form({ token: 'agt_at_x' })),
          401,
          'invalid_client',
        );
        await assertOAuthError(
          await h.call(endpoint, form({}), {
            headers: { authorization: basic(client.client_id, client.client_secret) },
          }),
          400,
          'invalid_request',
        );
      }
    });
  });

  test('30 token requests per minute per client, then 429 with Retry-After', async () => {
    const client = await h.register();
    for (let i = 0; i < 30; i++) await h.token(client);
    const refused = await h.call('token', form({ grant_type: 'client_credentials' }), {
      headers: { authorization: basic(client.client_id, client.client_secret) },
    });
    await assertOAuthError(refused, 429, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '60');
    const other = await h.register({ client_name: 'otro' });
    await h.token(other);
    h.clock += 60_000;
    await h.token(client);
  });

  test('30 failed authentications per minute per address, then 429 even with the right secret', async () => {
    const client = await h.register();
    const attacker = { address: '203.0.113.66' };
    for (let i = 0; i < 30; i++) {
      const response = await h.call('token', form({ grant_type: 'client_credentials' }), {
        ...attacker,
        headers: { authorization: basic(client.client_id, `guess-${i}`) },
      });
      await assertOAuthError(response, 401, 'invalid_client');
    }
    const blocked = await h.call('token', form({ grant_type: 'client_credentials' }), {
      ...attacker,
      headers: { authorization: basic(client.client_id, client.client_secret) },
    });
    await assertOAuthError(blocked, 429, 'rate_limited');
    assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
    const introspection = await h.call('introspect', form({ token: 'x' }), {
      ...attacker,
      headers: { authorization: basic(client.client_id, client.client_secret) },
    });
    await assertOAuthError(introspection, 429, 'rate_limited');
    await h.token(client);
  });

  test('data survives closing and reopening the store', async () => {
    const client = await h.register();
    const token = await h.token(client);
    await h.close();
    await h.open();
    assert.equal((await h.introspect(client, token)).active, true);
    await h.token(client);
  });

  test('a client with no token request for the idle period is recycled with its tokens', async () => {
    const idle = await h.register({ client_name: 'olvidado' });
    const idleToken = await h.token(idle);
    h.clock += 2 * 86_400_000;
    const active = await h.register({ client_name: 'activo' });
    await h.close();
    await h.open({ clientIdleDays: 1 });

    const refused = await h.call('token', form({ grant_type: 'client_credentials' }), {
      headers: { authorization: basic(idle.client_id, idle.client_secret) },
    });
    await assertOAuthError(refused, 401, 'invalid_client');
    assert.equal(await h.store.findClient(idle.client_id), undefined);
    const resolveCaller = createCallerResolver({
      store: h.store,
      addresses: { trustProxy: 0, ipv6Prefix: 64 },
      now: () => h.clock,
    });
    await assert.rejects(
      resolveCaller(
        new Request(`${SITE}/api/v1/read_page?url=/`, {
          headers: { authorization: `Bearer ${idleToken}` },
        }),
        { clientAddress: '192.0.2.1' },
        METADATA,
      ),
      {
        status: 401,
      },
    );
    await h.token(active);
  });
});

describe('OAuth over HTTP against the built site (the npm start front)', () => {
  let server: TestServer;
  let site: string;
  /** oauth4webapi talks to the published (site) URLs; this sends them to the test server instead. */
  // Each test calls from its own loopback address: registrations are limited per address.
  let fetchAs: ReturnType<typeof fetchFrom>;
  beforeEach(() => {
    fetchAs = fetchFrom();
  });
  const options = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (url: string, init: object) =>
      fetchAs(url.replace(site, server.url), init as RequestInit),
  };

  before(async () => {
    server = await startTestServer();
    const metadata = (await (
      await fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json()) as { issuer: string };
    site = metadata.issuer;
  });
  after(() => server?.close());

  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetchAs(`${server.url}${path}`, { method: 'POST', body, headers });
  const postForm = (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    post(path, form(fields), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  const api = (path: string, token?: string) =>
    fetchAs(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  test('oauth4webapi: discovery, registration, client credentials, a protected call, introspection, revocation', async () => {
    const issuer = new URL(site);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    assert.deepEqual(as.grant_types_supported, [
      'authorization_code',
      'refresh_token',
      'client_credentials',
    ]);

    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'oauth4webapi e2e',
          contacts: ['e2e@example.com'],
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
        options,
      ),
    );
    const auth = oauth.ClientSecretBasic(String(client.client_secret));
    const tokens = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(
        as,
        client,
        auth,
        new URLSearchParams({ scope: 'content:read quota:read' }),
        options,
      ),
    );
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, 3600);

    const quota = await oauth.protectedResourceRequest(
      tokens.access_token,
      'GET',
      new URL(`${site}/api/v1/quota`),
      undefined,
      undefined,
      options,
    );
    assert.equal(quota.status, 200);
    assert.equal(
      ((await quota.json()) as { client_id: string; limit: number }).client_id,
      client.client_id,
    );

    const introspection = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, tokens.access_token, options),
    );
    assert.equal(introspection.active, true);
    assert.equal(introspection.client_id, client.client_id);
    assert.equal(introspection.scope, 'content:read quota:read');
    assert.equal(introspection.token_type, 'Bearer');
    assert.equal(introspection.exp! - introspection.iat!, 3600);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, tokens.access_token, options),
    );
    assert.equal(
      (
        await oauth.processIntrospectionResponse(
          as,
          client,
          await oauth.introspectionRequest(as, client, auth, tokens.access_token, options),
        )
      ).active,
      false,
    );

    // The 401 challenge as an independent parser reads it (RFC 6750 §3, RFC 9728 §5.1).
    await assert.rejects(
      oauth.protectedResourceRequest(
        tokens.access_token,
        'GET',
        new URL(`${site}/api/v1/search_pages?query=fontanero`),
        undefined,
        undefined,
        options,
      ),
      (error: oauth.WWWAuthenticateChallengeError) => {
        assert.equal(error.status, 401);
        assert.deepEqual(
          error.cause.map(({ scheme, parameters }) => ({ scheme, parameters: { ...parameters } })),
          [
            {
              scheme: 'bearer',
              parameters: {
                error: 'invalid_token',
                resource_metadata: `${site}/.well-known/oauth-protected-resource/api/v1`,
              },
            },
          ],
        );
        return true;
      },
    );

    // client_secret_post through the same library.
    const viaPost = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(String(client.client_secret)),
        new URLSearchParams(),
        options,
      ),
    );
    assert.equal(viaPost.scope, 'content:read quota:read');
  });

  test('the whole flow with plain HTTP: a token raises the quota, get_quota reads it without consuming, revoke ends it', async () => {
    const registration = await post(
      '/oauth/register',
      JSON.stringify({ client_name: 'curl', contacts: ['ops@example.com'] }),
      { 'content-type': 'application/json' },
    );
    assert.equal(registration.status, 201);
    const client = (await registration.json()) as Registered;

    const basicToken = await postForm(
      '/oauth/token',
      { grant_type: 'client_credentials' },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    assert.equal(basicToken.status, 200);
    assert.equal(basicToken.headers.get('cache-control'), 'no-store');
    assert.equal(basicToken.headers.get('pragma'), 'no-cache');
    const token = ((await basicToken.json()) as { access_token: string }).access_token;
    const postToken = await postForm('/oauth/token', {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: 'content:read',
    });
    assert.equal(postToken.status, 200);
    const contentOnly = ((await postToken.json()) as { access_token: string }).access_token;

    const search = await api('/api/v1/search_pages?query=fontanero', token);
    assert.equal(search.status, 200);
    assert.equal(search.headers.get('ratelimit'), '"identificado";r=599;t=60');
    assert.equal(search.headers.get('ratelimit-policy'), '"identificado";q=600;w=60');
    assert.equal(search.headers.get('api-version'), '1');

    for (let i = 0; i < 2; i++) {
      const quota = await api('/api/v1/quota', token);
      assert.equal(quota.status, 200);
      const body = (await quota.json()) as Record<string, unknown>;
      assert.deepEqual(
        { ...body, reset_seconds: 0 },
        {
          client_id: client.client_id,
          policy: 'identificado',
          limit: 600,
          remaining: 599,
          reset_seconds: 0,
          scope: 'content:read quota:read',
          window_seconds: 60,
          used: 1,
        },
        'reading the quota does not consume it',
      );
    }

    const identity = await api('/agent/identity', contentOnly);
    assert.equal(identity.status, 200);
    const who = (await identity.json()) as {
      client_id: string;
      scope: string;
      quota: { used: number; limit: number };
    };
    assert.equal(who.client_id, client.client_id);
    assert.equal(who.scope, 'content:read');
    assert.equal(who.quota.limit, 600);

    const forbidden = await api('/api/v1/quota', contentOnly);
    assert.equal(forbidden.status, 403);
    assert.equal(((await forbidden.json()) as { code: string }).code, 'insufficient_scope');
    assert.equal(
      forbidden.headers.get('www-authenticate'),
      `Bearer error="insufficient_scope", scope="quota:read", resource_metadata="${site}/.well-known/oauth-protected-resource/api/v1"`,
    );

    const introspection = await postForm(
      '/oauth/introspect',
      { token },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    assert.equal(((await introspection.json()) as { active: boolean }).active, true);
    const revocation = await postForm(
      '/oauth/revoke',
      { token },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    assert.equal(revocation.status, 200);

    // Each resource names its own RFC 9728 document: the API's operations the API's, /agent/identity (outside the API) the site's.
    for (const [path, resource] of [
      ['/api/v1/search_pages?query=fontanero', '/api/v1'],
      ['/api/v1/read_page?url=/', '/api/v1'],
      ['/api/v1/quota', '/api/v1'],
      ['/agent/identity', ''],
    ]) {
      const refused = await api(path!, token);
      assert.equal(refused.status, 401, path);
      assert.equal(
        refused.headers.get('www-authenticate'),
        `Bearer error="invalid_token", resource_metadata="${site}/.well-known/oauth-protected-resource${resource}"`,
      );
      assert.equal(((await refused.json()) as { code: string }).code, 'invalid_token');
    }
    const anonymousQuota = await api('/api/v1/quota');
    assert.equal(anonymousQuota.status, 401);
    assert.match(
      anonymousQuota.headers.get('www-authenticate') ?? '',
      /^Bearer .*resource_metadata="/,
    );
  });

  test('errors over HTTP are RFC 6749 JSON with their codes, never HTML or 500', async () => {
    const client = (await (
      await post('/oauth/register', JSON.stringify({ client_name: 'errores' }), {
        'content-type': 'application/json',
      })
    ).json()) as Registered;
    const auth = { authorization: basic(client.client_id, client.client_secret) };
    const wrong = await postForm(
      '/oauth/token',
      { grant_type: 'client_credentials' },
      { authorization: basic(client.client_id, 'agt_cs_wrong') },
    );
    await assertOAuthError(wrong, 401, 'invalid_client');
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    await assertOAuthError(
      await postForm('/oauth/token', { grant_type: 'password' }, auth),
      400,
      'unsupported_grant_type',
    );
    await assertOAuthError(
      await postForm('/oauth/token', { grant_type: 'client_credentials', scope: 'admin' }, auth),
      400,
      'invalid_scope',
    );
    await assertOAuthError(
      await postForm(
        '/oauth/token',
        { grant_type: 'client_credentials', client_secret: client.client_secret },
        auth,
      ),
      400,
      'invalid_request',
    );
    await assertOAuthError(
      await post('/oauth/token', 'grant_type=client_credentials', {
        ...auth,
        'content-type': 'text/plain',
      }),
      400,
      'invalid_request',
    );
    await assertOAuthError(
      await post(
        '/oauth/register',
        JSON.stringify({ client_name: 'x', grant_types: ['implicit'] }),
        { 'content-type': 'application/json' },
      ),
      400,
      'invalid_client_metadata',
    );
    await assertOAuthError(
      await post('/oauth/register', '{', { 'content-type': 'application/json' }),
      400,
      'invalid_request',
    );
    await assertOAuthError(
      await post('/oauth/register', JSON.stringify({ client_name: 'x'.repeat(40_000) }), {
        'content-type': 'application/json',
      }),
      413,
      'invalid_request',
    );
    const chunked = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 64; i++) c.enqueue(new Uint8Array(1024).fill(32));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await assertOAuthError(chunked, 413, 'invalid_request');
    const get = await fetch(`${server.url}/oauth/token`);
    await assertOAuthError(get, 405, 'invalid_request');
    assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  });

  test('5 registrations per hour per address, each 201 telling what is left, then 429 JSON with Retry-After and the rate-limit headers', async () => {
    const register = () =>
      post('/oauth/register', JSON.stringify({ client_name: 'lote' }), {
        'content-type': 'application/json',
      });
    for (let i = 0; i < 5; i++) {
      const registered = await register();
      assert.equal(registered.status, 201);
      assert.match(
        registered.headers.get('ratelimit') ?? '',
        new RegExp(`^"registro";r=${4 - i};t=\\d+$`),
      );
      assert.equal(registered.headers.get('ratelimit-policy'), '"registro";q=5;w=3600');
    }
    const refused = await register();
    await assertOAuthError(refused, 429, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 3599);
    assert.match(refused.headers.get('ratelimit') ?? '', /^"registro";r=0;t=\d+$/);
    assert.equal(refused.headers.get('ratelimit-policy'), '"registro";q=5;w=3600');
    const elsewhere = await fetchFrom()(`${server.url}/oauth/register`, {
      method: 'POST',
      body: JSON.stringify({ client_name: 'otra IP' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(elsewhere.status, 201);
  });

  test("another client's token: introspection says inactive, revocation answers 200 and changes nothing", async () => {
    const register = async (name: string) =>
      (await (
        await post('/oauth/register', JSON.stringify({ client_name: name }), {
          'content-type': 'application/json',
        })
      ).json()) as Registered;
    const alice = await register('alice');
    const bob = await register('bob');
    const token = (
      (await (
        await postForm(
          '/oauth/token',
          { grant_type: 'client_credentials' },
          { authorization: basic(alice.client_id, alice.client_secret) },
        )
      ).json()) as { access_token: string }
    ).access_token;
    const asBob = { authorization: basic(bob.client_id, bob.client_secret) };
    assert.deepEqual(await (await postForm('/oauth/introspect', { token }, asBob)).json(), {
      active: false,
    });
    assert.equal((await postForm('/oauth/revoke', { token }, asBob)).status, 200);
    assert.equal((await api('/agent/identity', token)).status, 200);
  });
});

describe('OAuth state across server restarts', () => {
  test('registrations and tokens survive a restart on the same data directory; idle clients are recycled at start-up', async () => {
    const first = await startTestServer();
    const register = async (url: string, name: string) =>
      (await (
        await fetch(`${url}/oauth/register`, {
          method: 'POST',
          body: JSON.stringify({ client_name: name }),
          headers: { 'content-type': 'application/json' },
        })
      ).json()) as Registered;
    const issue = async (url: string, client: Registered) => {
      const response = await fetch(`${url}/oauth/token`, {
        method: 'POST',
        body: form({ grant_type: 'client_credentials' }),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(client.client_id, client.client_secret),
        },
      });
      return {
        status: response.status,
        token: ((await response.json()) as { access_token?: string }).access_token,
      };
    };
    const client = await register(first.url, 'persistente');
    const { token } = await issue(first.url, client);
    await first.close({ keepData: true });

    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      assert.equal(
        (
          await fetch(`${second.url}/agent/identity`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
        200,
      );
      assert.equal((await issue(second.url, client)).status, 200);
    } finally {
      await second.close({ keepData: true });
    }

    // Restarted with a one-second idle period: the start-up check recycles the client and its tokens.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const third = await startWithIdlePeriod(first.dataDir, 1 / 86_400);
    try {
      assert.equal(
        (
          await fetch(`${third.url}/agent/identity`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
        401,
      );
      assert.equal((await issue(third.url, client)).status, 401);
    } finally {
      await third.close();
    }
  });
});

/** Starts the server with AGENT_API_CLIENT_IDLE_DAYS set: read once with the rest of its environment, and carried to the store. */
async function startWithIdlePeriod(dataDir: string, days: number): Promise<TestServer> {
  return startTestServer({ dataDir, env: { AGENT_API_CLIENT_IDLE_DAYS: String(days) } });
}
