/**
 * The authorization code grant with PKCE and no person present (RFC 6749 §4.1, RFC 7636, RFC 9207,
 * OAuth 2.1 §4.3.1), as connectors use it: the handlers over a real sqlite store (errors, single use,
 * rotation, limits, quotas; property-based runs of malformed requests), then over HTTP against the
 * built site with oauth4webapi as an independent standards client, and the discovery URLs clients ask
 * first.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { createCallerResolver } from '../../packages/astro-agent-api/src/server/caller.ts';
import { createRateLimiter } from '../../packages/astro-agent-api/src/server/rate-limit.ts';
import { fetchFrom } from '../helpers/fetch-from.ts';
import {
  assertOAuthError,
  basic,
  createOAuthHarness,
  createPkce,
  form,
  SITE,
} from '../helpers/oauth-harness.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** What mcp-remote (Claude Desktop's bridge) registers, field for field (its NodeOAuthClientProvider.clientMetadata). */
const MCP_REMOTE_METADATA = {
  redirect_uris: ['http://localhost:3334/oauth/callback'],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  client_name: 'MCP CLI Client',
  client_uri: 'https://github.com/modelcontextprotocol/mcp-cli',
  software_id: '2e6dc280-f3c3-4e01-99a7-8181dbd1d23d',
  software_version: '0.1.38',
};
const REDIRECT = MCP_REMOTE_METADATA.redirect_uris[0]!;

interface Connector {
  client_id: string;
}
interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  expires_in: number;
}

describe('the authorization code grant (handlers over a real sqlite store)', () => {
  let h: ReturnType<typeof createOAuthHarness>;
  let connector: Connector;
  beforeEach(async () => {
    h = createOAuthHarness();
    await h.open();
    connector = (await h.register(MCP_REMOTE_METADATA)) as unknown as Connector;
  });
  afterEach(() => h.close());

  /** A valid authorization request of the connector, with `overrides` (undefined drops a parameter). */
  function request(
    challenge: string,
    overrides: Record<string, string | undefined> = {},
  ): Record<string, string> {
    const query: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: connector.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'opaque-state',
      resource: `${SITE}/mcp`,
      ...overrides,
    };
    return Object.fromEntries(
      Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
  }

  async function authorize(
    overrides: Record<string, string | undefined> = {},
    address?: string,
  ): Promise<{ code: string; verifier: string; location: URL }> {
    const pkce = createPkce();
    const response = await h.authorize(request(pkce.challenge, overrides), address);
    assert.equal(response.status, 302, await response.clone().text());
    const location = new URL(response.headers.get('location')!);
    return { code: location.searchParams.get('code')!, verifier: pkce.verifier, location };
  }

  function exchange(
    code: string,
    verifier: string,
    fields: Record<string, string> = {},
  ): Promise<Response> {
    return h.call(
      'token',
      form({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: connector.client_id,
        ...fields,
      }),
    );
  }

  async function login(): Promise<Tokens> {
    const { code, verifier } = await authorize();
    const response = await exchange(code, verifier);
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as Tokens;
  }

  const refresh = (refreshToken: string, fields: Record<string, string> = {}) =>
    h.call(
      'token',
      form({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: connector.client_id,
        ...fields,
      }),
    );

  /** Whether a bearer token is accepted, as every route's caller step decides. */
  async function accepted(accessToken: string): Promise<boolean> {
    const resolve = createCallerResolver({
      store: h.store,
      addresses: { trustProxy: 0, ipv6Prefix: 64 },
      now: () => h.clock,
    });
    return resolve(
      new Request(`${SITE}/mcp`, { headers: { authorization: `Bearer ${accessToken}` } }),
      { clientAddress: '192.0.2.10' },
      `${SITE}/.well-known/oauth-protected-resource/mcp`,
    ).then(
      () => true,
      () => false,
    );
  }

  test("mcp-remote's registration: a public client, no secret, its grants and redirect URI as sent", async () => {
    const registered = (await h.register({
      ...MCP_REMOTE_METADATA,
      client_name: 'otro',
    })) as unknown as Record<string, unknown>;
    assert.equal('client_secret' in registered, false);
    assert.equal(registered.token_endpoint_auth_method, 'none');
    assert.deepEqual(registered.grant_types, ['authorization_code', 'refresh_token']);
    assert.deepEqual(registered.response_types, ['code']);
    assert.deepEqual(registered.redirect_uris, [REDIRECT]);
    // RFC 7591 §2 makes client_name optional: without it, the client is named by its redirect URI's host.
    const unnamed = (await h.register({
      redirect_uris: ['https://app.example/cb'],
    })) as unknown as Record<string, unknown>;
    assert.equal(unnamed.client_name, 'app.example');
    assert.deepEqual(
      unnamed.grant_types,
      ['authorization_code', 'refresh_token'],
      'redirect URIs without grant_types: the RFC 7591 default, with refresh',
    );
    assert.equal(unnamed.token_endpoint_auth_method, 'client_secret_basic');
    assert.match(String(unnamed.client_secret), /^agt_cs_/);
  });

  test('approves at once: a 302 to the redirect URI with code, state and iss, no body, never cached', async () => {
    const pkce = createPkce();
    const response = await h.authorize(request(pkce.challenge));
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(await response.text(), '');
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.deepEqual([...location.searchParams.keys()].sort(), ['code', 'iss', 'state']);
    assert.match(location.searchParams.get('code')!, /^agt_ac_[A-Za-z0-9_-]{43}$/);
    assert.equal(location.searchParams.get('state'), 'opaque-state');
    assert.equal(location.searchParams.get('iss'), SITE);
    // A redirect URI's own query is kept (RFC 6749 §3.1.2).
    const withQuery = (await h.register({
      redirect_uris: ['https://app.example/cb?tenant=7'],
      token_endpoint_auth_method: 'none',
    })) as unknown as Connector;
    const answered = await h.authorize({
      response_type: 'code',
      client_id: withQuery.client_id,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    const kept = new URL(answered.headers.get('location')!);
    assert.equal(
      kept.searchParams.get('tenant'),
      '7',
      'and with a single redirect URI, redirect_uri may be left out',
    );
    // The token request may then name that one, or none; never another.
    const exchangeWith = (redirectUri?: string) =>
      h.call(
        'token',
        form({
          grant_type: 'authorization_code',
          code: kept.searchParams.get('code')!,
          code_verifier: pkce.verifier,
          client_id: withQuery.client_id,
          ...(redirectUri && { redirect_uri: redirectUri }),
        }),
      );
    await assertOAuthError(await exchangeWith('https://app.example/cb'), 400, 'invalid_grant');
    assert.equal((await exchangeWith('https://app.example/cb?tenant=7')).status, 200);
  });

  test('a loopback redirect URI matches on any port (RFC 8252 §7.3); every other must match exactly', async () => {
    for (const redirectUri of [
      'http://localhost:5555/oauth/callback',
      'http://localhost/oauth/callback',
    ]) {
      const { location } = await authorize({ redirect_uri: redirectUri });
      assert.ok(location.href.startsWith(`${redirectUri}?`), location.href);
    }
    const app = (await h.register({
      redirect_uris: [
        'https://app.example/cb',
        'http://127.0.0.1:8976/cb',
        'http://[::1]/cb',
        'cursor://anysphere.cursor/oauth/cb',
      ],
      token_endpoint_auth_method: 'none',
    })) as unknown as Connector;
    const pkce = createPkce();
    const ask = (redirectUri: string) =>
      h.authorize({
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: redirectUri,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      });
    for (const redirectUri of [
      'http://127.0.0.1:1234/cb',
      'http://[::1]:9/cb',
      'https://app.example/cb',
      'cursor://anysphere.cursor/oauth/cb',
    ]) {
      const response = await ask(redirectUri);
      assert.equal(response.status, 302, redirectUri);
      assert.ok(response.headers.get('location')!.startsWith(redirectUri), redirectUri);
    }
    for (const redirectUri of [
      'https://app.example:8443/cb',
      'https://app.example/cb/',
      'https://app.example/CB',
      'http://127.0.0.1:1234/other',
      'http://127.0.0.2/cb',
      'https://evil.example/cb',
      'http://localhost:3334/oauth/callback',
    ]) {
      const response = await ask(redirectUri);
      await assertOAuthError(response, 400, 'invalid_request');
      assert.equal(response.headers.get('location'), null, redirectUri);
    }
  });

  test('until the client and its redirect URI are known, every error is a JSON 400 naming the parameter, never a redirect', async () => {
    const secretClient = await h.register({ client_name: 'solo credenciales' });
    const two = (await h.register({
      redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
      token_endpoint_auth_method: 'none',
    })) as unknown as Connector;
    const pkce = createPkce();
    const cases: [
      string,
      Record<string, string | undefined> | [string, string][],
      string,
      RegExp,
    ][] = [
      ['no client_id', { client_id: undefined }, 'invalid_request', /client_id is required/],
      ['an unknown client_id', { client_id: 'agt_ci_nobody' }, 'invalid_client', /Unknown client/],
      [
        'a client of client credentials only',
        { client_id: secretClient.client_id },
        'unauthorized_client',
        /no redirect_uris/,
      ],
      [
        'a redirect_uri that is not registered',
        { redirect_uri: 'https://evil.example/steal' },
        'invalid_request',
        /redirect_uri .* is not one the client/,
      ],
      [
        'no redirect_uri for a client with two',
        { client_id: two.client_id, redirect_uri: undefined },
        'invalid_request',
        /redirect_uri is required/,
      ],
      [
        'a state too long to send back',
        { state: 's'.repeat(1025) },
        'invalid_request',
        /state has more than 1024/,
      ],
    ];
    for (const [name, overrides, error, description] of cases) {
      const response = await h.authorize(
        Array.isArray(overrides) ? overrides : request(pkce.challenge, overrides),
      );
      const body = await assertOAuthError(response, 400, error);
      assert.match(body.error_description!, description, name);
      assert.equal(response.headers.get('location'), null, name);
    }
    const repeated = await h.authorize([
      ...Object.entries(request(pkce.challenge)),
      ['redirect_uri', 'https://evil.example/steal'],
    ]);
    assert.match(
      (await assertOAuthError(repeated, 400, 'invalid_request')).error_description!,
      /redirect_uri is repeated/,
    );
  });

  test('once they are, every error goes back to the redirect URI with error, error_description, state and iss (RFC 6749 §4.1.2.1)', async () => {
    const pkce = createPkce();
    const cases: [
      string,
      Record<string, string | undefined> | [string, string][],
      string,
      RegExp,
    ][] = [
      [
        'no response_type',
        { response_type: undefined },
        'unsupported_response_type',
        /response_type is required/,
      ],
      [
        'the implicit grant',
        { response_type: 'token' },
        'unsupported_response_type',
        /token is not supported/,
      ],
      [
        'no code_challenge',
        { code_challenge: undefined },
        'invalid_request',
        /code_challenge is required/,
      ],
      [
        'a code_challenge of the wrong shape',
        { code_challenge: 'short' },
        'invalid_request',
        /code_challenge must be/,
      ],
      [
        'no code_challenge_method (plain by default)',
        { code_challenge_method: undefined },
        'invalid_request',
        /plain, which is refused/,
      ],
      [
        'plain',
        { code_challenge_method: 'plain' },
        'invalid_request',
        /plain is refused: use S256/,
      ],
      ['an unknown scope', { scope: 'content:read admin' }, 'invalid_scope', /scopes among/],
      [
        'another resource',
        { resource: 'https://elsewhere.example/mcp' },
        'invalid_target',
        /not served here/,
      ],
      [
        'a repeated parameter',
        [...Object.entries(request(pkce.challenge)), ['code_challenge_method', 'S256']],
        'invalid_request',
        /code_challenge_method is repeated/,
      ],
    ];
    for (const [name, overrides, error, description] of cases) {
      const response = await h.authorize(
        Array.isArray(overrides) ? overrides : request(pkce.challenge, overrides),
      );
      assert.equal(response.status, 302, name);
      const location = new URL(response.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT, name);
      assert.equal(location.searchParams.get('error'), error, name);
      assert.match(location.searchParams.get('error_description')!, description, name);
      assert.equal(location.searchParams.get('state'), 'opaque-state', name);
      assert.equal(location.searchParams.get('iss'), SITE, name);
      assert.equal(location.searchParams.has('code'), false, name);
    }
    // Every resource of the site is accepted, spelled with or without its trailing slash.
    for (const resource of [SITE, `${SITE}/`, `${SITE}/api/v1`, `${SITE}/mcp/`])
      assert.ok((await authorize({ resource })).code, resource);
  });

  test('a code is exchanged once, by its client, for its redirect URI and with its verifier; a second use revokes what the first gave', async () => {
    const { code, verifier } = await authorize();
    const other = (await h.register({
      ...MCP_REMOTE_METADATA,
      client_name: 'otro',
    })) as unknown as Connector;
    const refusals: [Record<string, string>, RegExp][] = [
      [{ code_verifier: createPkce().verifier }, /code_verifier does not match/],
      [{ redirect_uri: 'http://localhost:3334/other' }, /redirect_uri differs/],
      [{ client_id: other.client_id }, /issued to another client/],
      [{ code: `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}` }, /unknown or expired/],
    ];
    for (const [fields, why] of refusals) {
      const response = await exchange(code, verifier, fields);
      assert.match(
        (await assertOAuthError(response, 400, 'invalid_grant')).error_description!,
        why,
      );
    }
    // None of those used the code: the right request still gets the tokens.
    const issued = await exchange(code, verifier);
    assert.equal(issued.status, 200);
    assert.equal(issued.headers.get('cache-control'), 'no-store');
    const tokens = (await issued.json()) as Tokens;
    assert.match(tokens.access_token, /^agt_at_/);
    assert.match(tokens.refresh_token, /^agt_rt_/);
    assert.equal(tokens.scope, 'content:read quota:read');
    assert.equal(tokens.expires_in, 3600);
    assert.equal(await accepted(tokens.access_token), true);

    const replay = await exchange(code, verifier);
    assert.match(
      (await assertOAuthError(replay, 400, 'invalid_grant')).error_description!,
      /already used: the tokens it gave are revoked/,
    );
    assert.equal(
      await accepted(tokens.access_token),
      false,
      'the access token of the first exchange is revoked',
    );
    await assertOAuthError(await refresh(tokens.refresh_token), 400, 'invalid_grant');
  });

  test(`a code lives 60 s; a resource the request did not name is refused at the token endpoint`, async () => {
    const late = await authorize();
    h.clock += 60_000;
    assert.match(
      (await assertOAuthError(await exchange(late.code, late.verifier), 400, 'invalid_grant'))
        .error_description!,
      /unknown or expired/,
    );
    const named = await authorize({ resource: `${SITE}/api/v1` });
    await assertOAuthError(
      await exchange(named.code, named.verifier, { resource: `${SITE}/mcp` }),
      400,
      'invalid_target',
    );
    await assertOAuthError(
      await exchange(named.code, named.verifier, { resource: 'https://elsewhere.example/' }),
      400,
      'invalid_target',
    );
    assert.equal(
      (await exchange(named.code, named.verifier, { resource: `${SITE}/api/v1` })).status,
      200,
    );
  });

  test('a refresh token rotates: the one sent is spent; reusing it revokes the whole grant; scope narrows, never widens', async () => {
    const first = await login();
    const narrowed = await refresh(first.refresh_token, { scope: 'content:read' });
    assert.equal(narrowed.status, 200);
    const second = (await narrowed.json()) as Tokens;
    assert.equal(second.scope, 'content:read');
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(
      await accepted(first.access_token),
      true,
      'an access token lives on until it expires',
    );

    const third = (await (await refresh(second.refresh_token)).json()) as Tokens;
    assert.equal(
      third.scope,
      'content:read quota:read',
      'the grant keeps its scope: a later refresh may ask it all again',
    );
    await assertOAuthError(
      await refresh(third.refresh_token, { scope: 'content:read admin' }),
      400,
      'invalid_scope',
    );

    const reuse = await refresh(first.refresh_token);
    assert.match(
      (await assertOAuthError(reuse, 400, 'invalid_grant')).error_description!,
      /already used: every token of its grant is revoked/,
    );
    for (const token of [first.access_token, second.access_token, third.access_token])
      assert.equal(await accepted(token), false);
    await assertOAuthError(await refresh(third.refresh_token), 400, 'invalid_grant');
    // Another grant of the same client is untouched.
    const other = await login();
    assert.equal((await refresh(other.refresh_token)).status, 200);
  });

  test('refresh tokens are bound to their client; a public client may revoke, not introspect; revoking a refresh token ends its grant', async () => {
    const tokens = await login();
    const other = (await h.register({
      ...MCP_REMOTE_METADATA,
      client_name: 'otro',
    })) as unknown as Connector;
    await assertOAuthError(
      await refresh(tokens.refresh_token, { client_id: other.client_id }),
      400,
      'invalid_grant',
    );
    await assertOAuthError(
      await h.call(
        'introspect',
        form({ token: tokens.access_token, client_id: connector.client_id }),
      ),
      401,
      'invalid_client',
    );
    await assertOAuthError(
      await h.call(
        'token',
        form({ grant_type: 'client_credentials', client_id: connector.client_id }),
      ),
      400,
      'unauthorized_client',
    );
    assert.equal(
      (await h.call('revoke', form({ token: tokens.refresh_token, client_id: other.client_id })))
        .status,
      200,
    );
    assert.equal(
      await accepted(tokens.access_token),
      true,
      "another client's revocation changes nothing",
    );
    assert.equal(
      (
        await h.call(
          'revoke',
          form({ token: tokens.refresh_token, client_id: connector.client_id }),
        )
      ).status,
      200,
    );
    assert.equal(await accepted(tokens.access_token), false);
    await assertOAuthError(await refresh(tokens.refresh_token), 400, 'invalid_grant');
  });

  test('a confidential client of the authorization code grant authenticates at the token endpoint', async () => {
    const confidential = await h.register({
      client_name: 'web app',
      redirect_uris: ['https://app.example/cb'],
    });
    const pkce = createPkce();
    const answered = await h.authorize({
      response_type: 'code',
      client_id: confidential.client_id,
      redirect_uri: 'https://app.example/cb',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    const code = new URL(answered.headers.get('location')!).searchParams.get('code')!;
    const fields = {
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: 'https://app.example/cb',
    };
    await assertOAuthError(
      await h.call('token', form({ ...fields, client_id: confidential.client_id })),
      401,
      'invalid_client',
    );
    const issued = await h.call('token', form(fields), {
      headers: { authorization: basic(confidential.client_id, confidential.client_secret) },
    });
    assert.equal(issued.status, 200);
  });

  test('each grant has a quota of its own, shared by its tokens: people behind one connector do not share one', async () => {
    const resolve = createCallerResolver({
      store: h.store,
      addresses: { trustProxy: 0, ipv6Prefix: 64 },
      now: () => h.clock,
    });
    const limiter = createRateLimiter({
      store: h.store,
      policies: {
        anonymous: { name: 'anonimo', quota: 60 },
        identified: { name: 'identificado', quota: 3 },
      },
      now: () => h.clock,
    });
    const callerOf = (token: string) =>
      resolve(
        new Request(`${SITE}/mcp`, { headers: { authorization: `Bearer ${token}` } }),
        { clientAddress: '192.0.2.10' },
        'x',
      );
    const alice = await login();
    const bob = await login();
    const aliceLater = (await (await refresh(alice.refresh_token)).json()) as Tokens;
    for (let i = 0; i < 3; i++)
      await limiter.consume(await callerOf(i === 2 ? aliceLater.access_token : alice.access_token));
    await assert.rejects(
      limiter.consume(await callerOf(aliceLater.access_token)),
      { status: 429 },
      "a refreshed token counts in its grant's window",
    );
    const bobs = await limiter.consume(await callerOf(bob.access_token));
    assert.deepEqual([bobs.limit, bobs.remaining], [3, 2], "bob's grant has its own window");
    assert.equal((await callerOf(bob.access_token)).clientId, connector.client_id);
  });

  test('new grants: 20 an hour per network, then temporarily_unavailable at the redirect URI; other networks go on; 1,000 an hour per client', async () => {
    for (let i = 0; i < 20; i++) await authorize({}, '198.51.100.1');
    const refused = await h.authorize(request(createPkce().challenge), '198.51.100.1');
    const location = new URL(refused.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'temporarily_unavailable');
    assert.match(
      location.searchParams.get('error_description')!,
      /at most 20 per 3600 s \(autorizacion\)\. Retry in 3600 s/,
    );
    assert.equal(location.searchParams.get('state'), 'opaque-state');
    await authorize({}, '198.51.100.2');
    // The hundredth person of the hour, each from their own network, gets in; past the client's limit nobody does.
    for (let i = 0; i < 979; i++) await authorize({}, `10.${Math.floor(i / 250)}.${i % 250}.1`);
    const full = new URL(
      (await h.authorize(request(createPkce().challenge), '203.0.113.9')).headers.get('location')!,
    );
    assert.match(
      full.searchParams.get('error_description')!,
      /at most 1000 per 3600 s \(autorizacion-cliente\)/,
    );
    const another = (await h.register({
      ...MCP_REMOTE_METADATA,
      client_name: 'otro',
    })) as unknown as Connector;
    const pkce = createPkce();
    const elsewhere = await h.authorize(
      {
        response_type: 'code',
        client_id: another.client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      },
      '203.0.113.9',
    );
    assert.ok(
      new URL(elsewhere.headers.get('location')!).searchParams.get('code'),
      "another client's limit is its own",
    );
    h.clock += 3_600_000;
    await authorize({}, '198.51.100.1');
  });

  test('no malformed authorization request gets a 5xx, HTML, or a redirect anywhere but to the registered URI (property-based)', async () => {
    const pkce = createPkce();
    const valid = request(pkce.challenge);
    const names = [...Object.keys(valid), 'prompt', 'nonce', 'response_mode'];
    const value = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(
        ...Object.values(valid),
        '',
        'plain',
        'token',
        'code',
        'http://localhost:9/oauth/callback',
        'javascript:alert(1)',
        '%00',
        '\u0000',
        'ñ'.repeat(300),
      ),
    );
    const query = fc
      .tuple(
        fc.subarray(Object.entries(valid)),
        fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 10 }),
      )
      .map(([kept, added]) => [...kept, ...added]);
    let network = 0;
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        network += 1;
        const response = await h.authorize(
          pairs,
          `172.16.${Math.floor(network / 250)}.${network % 250}`,
        );
        if (response.status === 302) {
          const location = new URL(response.headers.get('location')!);
          assert.ok(
            location.protocol === 'http:' &&
              ['localhost'].includes(location.hostname) &&
              location.pathname === '/oauth/callback',
            location.href,
          );
          assert.ok(
            location.searchParams.has('code') !== location.searchParams.has('error'),
            location.href,
          );
          assert.equal(location.searchParams.get('iss'), SITE);
          return;
        }
        assert.equal(response.status, 400, await response.clone().text());
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await response.json()) as { error: string; error_description: string };
        assert.match(body.error, /^(invalid_request|invalid_client|unauthorized_client)$/);
        assert.match(body.error_description, /client_id|redirect_uri|state|client /);
      }),
      { numRuns: 300 },
    );
  });

  test('no malformed token request gets a 5xx or HTML: a JSON error naming what is wrong (property-based)', async () => {
    const { code, verifier } = await authorize();
    const tokens = await login();
    const names = [
      'grant_type',
      'code',
      'code_verifier',
      'redirect_uri',
      'refresh_token',
      'client_id',
      'client_secret',
      'scope',
      'resource',
      'client_assertion',
      'client_assertion_type',
    ];
    const value = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'password',
        code,
        verifier,
        REDIRECT,
        tokens.refresh_token,
        connector.client_id,
        `${SITE}/mcp`,
        'content:read',
        'x'.repeat(200),
      ),
    );
    const body = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 8 });
    let network = 0;
    await fc.assert(
      fc.asyncProperty(body, async (fields) => {
        network += 1;
        const response = await h.call('token', form(fields), {
          address: `172.17.${Math.floor(network / 250)}.${network % 250}`,
        });
        assert.ok(
          [200, 400, 401].includes(response.status),
          `${response.status} ${await response.clone().text()}`,
        );
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(response.headers.get('cache-control'), 'no-store');
        if (response.status === 200) return;
        const answer = (await response.json()) as { error: string; error_description: string };
        assert.match(
          answer.error,
          /^(invalid_request|invalid_client|invalid_grant|invalid_scope|invalid_target|unauthorized_client|unsupported_grant_type)$/,
        );
        assert.ok(answer.error_description.length > 10, answer.error_description);
      }),
      { numRuns: 300 },
    );
  });
});

describe('over HTTP against the built site (the npm start front)', () => {
  let server: TestServer;
  let site: string;
  let fetchAs: ReturnType<typeof fetchFrom>;
  before(async () => {
    server = await startTestServer();
    site = (
      (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
        issuer: string;
      }
    ).issuer;
  });
  after(() => server?.close());
  beforeEach(() => {
    fetchAs = fetchFrom();
  });
  const options = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (url: string, init: object) =>
      fetchAs(url.replace(site, server.url), init as RequestInit),
  };

  /** oauth4webapi, a standards client nobody here wrote: discovery, registration as a public client, authorize, the code exchange. */
  async function connect(): Promise<{
    as: oauth.AuthorizationServer;
    client: oauth.Client;
    tokens: oauth.TokenEndpointResponse;
  }> {
    const issuer = new URL(site);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          redirect_uris: ['http://127.0.0.1:9/callback'],
          token_endpoint_auth_method: 'none',
          client_name: 'oauth4webapi',
        },
        options,
      ),
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: 'http://127.0.0.1:53682/callback',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource: `${site}/mcp`,
    }).toString();
    // The browser's part: follow the authorization request to the redirect, which nobody has to approve.
    const redirect = await fetchAs(authorizationUrl.href.replace(site, server.url));
    assert.equal(redirect.status, 302);
    const callback = oauth.validateAuthResponse(
      as,
      client,
      new URL(redirect.headers.get('location')!),
      state,
    );
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      callback,
      'http://127.0.0.1:53682/callback',
      verifier,
      options,
    );
    return {
      as,
      client,
      tokens: await oauth.processAuthorizationCodeResponse(as, client, response),
    };
  }

  test('oauth4webapi: the metadata, a public client, authorization code with PKCE and iss, refresh with rotation, reuse detected', async () => {
    const { as, client, tokens } = await connect();
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.ok(as.token_endpoint_auth_methods_supported?.includes('none'));
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
    const read = (await quota.json()) as { client_id: string; policy: string; limit: number };
    assert.deepEqual(
      [read.client_id, read.policy, read.limit],
      [client.client_id, 'identificado', 600],
    );

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.None(),
        tokens.refresh_token!,
        options,
      ),
    );
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    await assert.rejects(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(
          as,
          client,
          oauth.None(),
          tokens.refresh_token!,
          options,
        ),
      ),
      (error: oauth.ResponseBodyError) => error.error === 'invalid_grant' && error.status === 400,
    );
    // The reuse revoked the grant: the latest access token is refused, with the way back to a working token.
    const refused = await fetchAs(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${refreshed.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get('www-authenticate'),
      `Bearer error="invalid_token", resource_metadata="${site}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  test('each person behind one connector has a quota of their own, from the same address', async () => {
    const first = await connect();
    const second = await connect();
    for (const { tokens } of [first, second]) {
      const search = await fetchAs(`${server.url}/api/v1/search_pages?query=fontanero`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(search.headers.get('ratelimit'), '"identificado";r=599;t=60');
    }
  });

  test('every URL an OAuth client asks first answers JSON: the MCP resource metadata, and a JSON 404 where nothing is published', async () => {
    const mcp = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(mcp.status, 200);
    const metadata = (await mcp.json()) as Record<string, unknown>;
    assert.equal(metadata.resource, `${site}/mcp`);
    assert.deepEqual(metadata.authorization_servers, [site]);
    for (const path of [
      '/.well-known/openid-configuration',
      '/.well-known/openid-configuration/mcp',
      '/.well-known/oauth-authorization-server/mcp',
      '/.well-known/oauth-protected-resource/other',
      '/mcp/.well-known/openid-configuration',
      '/mcp/.well-known/oauth-authorization-server',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 404, path);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, path);
      const body = (await response.json()) as { data: { hint: string } };
      assert.ok(body.data.hint.includes(`${site}/.well-known/oauth-authorization-server`), path);
    }
    const get = await fetch(`${server.url}/mcp`);
    assert.notEqual(get.status, 200);
    assert.match(get.headers.get('content-type') ?? '', /json/, 'GET /mcp answers JSON');
    // Anonymous calls keep working without a 401.
    const anonymous = await fetchAs(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_pages', arguments: { query: 'fontanero' } },
      }),
    });
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.headers.get('www-authenticate'), null);
  });
});
