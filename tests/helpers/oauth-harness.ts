import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import {
  createOAuthHandlers,
  type OAuthHandlers,
} from '../../packages/astro-agent-api/src/server/oauth/handlers.ts';
import { openStore } from '../../packages/astro-agent-api/src/store/open-store.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';

/** The issuer the handlers see: their requests are made for this origin. */
export const SITE = 'https://www.example.test';

const root = await mkdtemp(join(tmpdir(), 'agent-api-oauth-'));
after(() => rm(root, { recursive: true, force: true }));
let dirs = 0;

export interface Registered {
  client_id: string;
  client_secret: string;
}

/** RFC 6749 §2.3.1 as oauth4webapi does it: form-urlencode id and secret, then base64. */
export function basic(clientId: string, secret: string): string {
  const encode = (value: string) =>
    encodeURIComponent(value)
      .replace(/[-_.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  return `Basic ${btoa(`${encode(clientId)}:${encode(secret)}`)}`;
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A PKCE pair (RFC 7636 §4.1, §4.2): a 43-character verifier and its S256 challenge. */
export function createPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The OAuth handlers over a real sqlite store in a temporary folder, with a clock the test can move. */
export function createOAuthHarness() {
  const harness = {
    clock: Date.now(),
    dataDir: join(root, `data-${++dirs}`),
    store: undefined as unknown as Store,
    oauth: undefined as unknown as OAuthHandlers,
    async open(storeOptions: { clientIdleDays?: number } = {}) {
      harness.store = await openStore({
        dataDir: harness.dataDir,
        now: () => harness.clock,
        ...storeOptions,
      });
      harness.oauth = createOAuthHandlers({
        store: harness.store,
        addresses: { trustProxy: 0, ipv6Prefix: 64 },
        now: () => harness.clock,
      });
    },
    async close() {
      await harness.store.close();
    },
    call(
      endpoint: keyof OAuthHandlers,
      body: string | undefined,
      init: {
        type?: string;
        headers?: Record<string, string>;
        address?: string;
        method?: string;
      } = {},
    ): Promise<Response> {
      const headers: Record<string, string> = { ...init.headers };
      if (init.type !== '')
        headers['content-type'] = init.type ?? 'application/x-www-form-urlencoded';
      const request = new Request(`${SITE}/oauth/${endpoint}`, {
        method: init.method ?? 'POST',
        body,
        headers,
      });
      return harness.oauth[endpoint](request, { clientAddress: init.address ?? '192.0.2.10' });
    },
    /** GET /oauth/authorize with these query parameters (a list, so that one may be repeated), as a browser follows it. */
    authorize(
      query: Record<string, string> | [string, string][],
      address = '192.0.2.10',
    ): Promise<Response> {
      const request = new Request(`${SITE}/oauth/authorize?${new URLSearchParams(query)}`);
      return harness.oauth.authorize(request, { clientAddress: address });
    },
    async register(
      metadata: Record<string, unknown> = { client_name: 'Agente de pruebas' },
      address?: string,
    ): Promise<Registered> {
      const response = await harness.call('register', JSON.stringify(metadata), {
        type: 'application/json',
        address,
      });
      assert.equal(response.status, 201, await response.clone().text());
      return (await response.json()) as Registered;
    },
    async token(client: Registered, fields: Record<string, string> = {}): Promise<string> {
      const response = await harness.call(
        'token',
        form({ grant_type: 'client_credentials', ...fields }),
        {
          headers: { authorization: basic(client.client_id, client.client_secret) },
        },
      );
      assert.equal(response.status, 200, await response.clone().text());
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async introspect(client: Registered, token: string): Promise<Record<string, unknown>> {
      const response = await harness.call('introspect', form({ token }), {
        headers: { authorization: basic(client.client_id, client.client_secret) },
      });
      assert.equal(response.status, 200);
      return (await response.json()) as Record<string, unknown>;
    },
  };
  return harness;
}

/** Every OAuth error: RFC 6749 §5.2 JSON with the expected code, never cached. */
export async function assertOAuthError(
  response: Response,
  status: number,
  error: string,
): Promise<Record<string, string>> {
  const body = (await response.json()) as Record<string, string>;
  assert.equal(response.status, status, JSON.stringify(body));
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, 'string');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return body;
}
