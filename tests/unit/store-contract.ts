import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type {
  AuthorizationCodeRecord,
  ClientRecord,
  GrantRecord,
  GrantTokens,
  SearchCount,
  Store,
  TokenRecord,
  TrafficCount,
  WindowCounter,
} from '../../packages/astro-agent-api/src/store/store.ts';

/**
 * The Store contract suite: every backend runs it unchanged. `openFreshStore` returns an empty store
 * (its own file, database or key prefix); the suite closes it after each test. Times are passed in
 * explicitly, as the contract requires, so nothing here waits for a clock.
 */
export function runStoreContract(name: string, openFreshStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    const T0 = 1_800_000_000_000;
    const HOUR = 3_600_000;
    let store: Store;

    beforeEach(async () => {
      store = await openFreshStore();
    });
    afterEach(async () => {
      await store.close();
    });

    function client(overrides: Partial<ClientRecord> = {}): ClientRecord {
      return {
        clientId: `client-${randomUUID()}`,
        secretHash: sha256(randomUUID()),
        clientName: 'Agente de pruebas ñ',
        contacts: ['ops@example.com', 'dev@example.es'],
        scope: 'content:read quota:read',
        tokenEndpointAuthMethod: 'client_secret_basic',
        grantTypes: ['client_credentials'],
        redirectUris: [],
        issuedAt: T0,
        lastTokenAt: T0,
        ...overrides,
      };
    }

    function token(clientId: string, overrides: Partial<TokenRecord> = {}): TokenRecord {
      return {
        tokenHash: sha256(randomUUID()),
        clientId,
        scope: 'content:read',
        issuedAt: T0,
        expiresAt: T0 + HOUR,
        ...overrides,
      };
    }

    describe('clients', () => {
      test('a registered client reads back exactly as stored', async () => {
        const record = client({
          contacts: [],
          tokenEndpointAuthMethod: 'client_secret_post',
          scope: 'quota:read',
        });
        await store.createClient(record);
        assert.deepEqual(await store.findClient(record.clientId), record);
        assert.deepEqual(await store.findClient(client().clientId), undefined);
      });

      test('a private_key_jwt client keeps its public keys, inline or by URL, and has no secret', async () => {
        const jwks = {
          keys: [
            {
              kty: 'OKP',
              crv: 'Ed25519',
              x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
              kid: 'clé 1',
            },
          ],
        };
        const inline = client({
          secretHash: '',
          tokenEndpointAuthMethod: 'private_key_jwt',
          publicKeys: { jwks },
        });
        const byUrl = client({
          secretHash: '',
          tokenEndpointAuthMethod: 'private_key_jwt',
          publicKeys: { jwksUri: 'https://agent.example/jwks.json' },
        });
        await store.createClient(inline);
        await store.createClient(byUrl);
        assert.deepEqual(await store.findClient(inline.clientId), inline);
        assert.deepEqual(await store.findClient(byUrl.clientId), byUrl);
      });

      test('a client_id cannot be registered twice', async () => {
        const record = client();
        await store.createClient(record);
        await assert.rejects(store.createClient({ ...record, secretHash: sha256('other') }));
        assert.equal((await store.findClient(record.clientId))?.secretHash, record.secretHash);
      });
    });

    describe('tokens', () => {
      test("an issued token is found until it expires, and records the client's last token request", async () => {
        const owner = client();
        await store.createClient(owner);
        const issued = token(owner.clientId, {
          issuedAt: T0 + 5_000,
          expiresAt: T0 + 5_000 + HOUR,
        });
        assert.equal(await store.insertToken(issued), true);
        assert.deepEqual(await store.findToken(issued.tokenHash, T0 + 6_000), issued);
        assert.deepEqual(await store.findToken(issued.tokenHash, issued.expiresAt - 1), issued);
        assert.equal(await store.findToken(issued.tokenHash, issued.expiresAt), undefined);
        assert.equal((await store.findClient(owner.clientId))?.lastTokenAt, T0 + 5_000);
      });

      test('an older token never moves the last token request back', async () => {
        const owner = client();
        await store.createClient(owner);
        await store.insertToken(token(owner.clientId, { issuedAt: T0 + 9_000 }));
        await store.insertToken(token(owner.clientId, { issuedAt: T0 + 1_000 }));
        assert.equal((await store.findClient(owner.clientId))?.lastTokenAt, T0 + 9_000);
      });

      test('a token for a client that does not exist is refused and not stored', async () => {
        const orphan = token('no-such-client');
        assert.equal(await store.insertToken(orphan), false);
        assert.equal(await store.findToken(orphan.tokenHash, T0), undefined);
      });

      test('an unknown token is not found', async () => {
        assert.equal(await store.findToken(sha256('never issued'), T0), undefined);
      });

      test("a client deletes its own token, never another client's", async () => {
        const alice = client();
        const bob = client();
        await store.createClient(alice);
        await store.createClient(bob);
        const alices = token(alice.clientId);
        await store.insertToken(alices);
        assert.equal(await store.deleteToken(alices.tokenHash, bob.clientId), false);
        assert.ok(await store.findToken(alices.tokenHash, T0));
        assert.equal(await store.deleteToken(alices.tokenHash, alice.clientId), true);
        assert.equal(await store.findToken(alices.tokenHash, T0), undefined);
        assert.equal(await store.deleteToken(alices.tokenHash, alice.clientId), false);
      });

      test('purging removes exactly the expired tokens', async () => {
        const owner = client();
        await store.createClient(owner);
        const expired = [1, 2, 3].map((i) => token(owner.clientId, { expiresAt: T0 + i * 1_000 }));
        const valid = token(owner.clientId, { expiresAt: T0 + HOUR });
        for (const record of [...expired, valid]) await store.insertToken(record);
        assert.equal(await store.purgeExpired(T0 + 3_000), 3);
        assert.equal(await store.purgeExpired(T0 + 3_000), 0);
        assert.deepEqual(await store.findToken(valid.tokenHash, T0 + 3_000), valid);
      });
    });

    describe('authorization codes, grants and refresh tokens', () => {
      const MINUTE = 60_000;
      const DAY = 24 * HOUR;

      /** A public client of the authorization code grant, as a connector registers. */
      async function connector(): Promise<ClientRecord> {
        const record = client({
          secretHash: '',
          tokenEndpointAuthMethod: 'none',
          grantTypes: ['authorization_code', 'refresh_token'],
          redirectUris: ['http://127.0.0.1/callback'],
        });
        await store.createClient(record);
        return record;
      }

      function code(
        clientId: string,
        overrides: Partial<AuthorizationCodeRecord> = {},
      ): AuthorizationCodeRecord {
        return {
          codeHash: sha256(randomUUID()),
          clientId,
          redirectUri: 'http://127.0.0.1:5173/callback',
          codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          resource: 'https://www.example.test/mcp',
          scope: 'content:read quota:read',
          issuedAt: T0,
          expiresAt: T0 + MINUTE,
          ...overrides,
        };
      }

      function grant(clientId: string, at = T0): GrantRecord {
        return {
          grantId: randomUUID(),
          clientId,
          scope: 'content:read quota:read',
          resource: 'https://www.example.test/mcp',
          issuedAt: at,
          expiresAt: at + 30 * DAY,
        };
      }

      function tokensOf(
        grantRecord: GrantRecord,
        at: number,
        scope = grantRecord.scope,
      ): GrantTokens {
        return {
          accessToken: {
            tokenHash: sha256(randomUUID()),
            clientId: grantRecord.clientId,
            scope,
            grantId: grantRecord.grantId,
            issuedAt: at,
            expiresAt: at + HOUR,
          },
          refreshToken: {
            tokenHash: sha256(randomUUID()),
            grantId: grantRecord.grantId,
            issuedAt: at,
            expiresAt: at + 30 * DAY,
          },
        };
      }

      /** A connector whose code was redeemed at T0: its grant and the tokens the redemption stored. */
      async function redeemedGrant(
        owner?: ClientRecord,
      ): Promise<{ owner: ClientRecord; family: GrantRecord; first: GrantTokens }> {
        const client = owner ?? (await connector());
        const stored = code(client.clientId);
        await store.insertAuthorizationCode(stored);
        const family = grant(client.clientId);
        const first = tokensOf(family, T0);
        assert.equal(
          await store.redeemAuthorizationCode(stored.codeHash, family, first, T0),
          'issued',
        );
        return { owner: client, family, first };
      }

      test('a client keeps its grant types and redirect URIs', async () => {
        const record = await connector();
        assert.deepEqual(await store.findClient(record.clientId), record);
      });

      test('a code reads back until it expires; a code for a client that does not exist is refused', async () => {
        const owner = await connector();
        const stored = code(owner.clientId);
        assert.equal(await store.insertAuthorizationCode(stored), true);
        assert.deepEqual(await store.findAuthorizationCode(stored.codeHash, T0 + 1_000), stored);
        assert.equal(
          await store.findAuthorizationCode(stored.codeHash, stored.expiresAt),
          undefined,
        );
        const orphan = code('no-such-client');
        assert.equal(await store.insertAuthorizationCode(orphan), false);
        assert.equal(await store.findAuthorizationCode(orphan.codeHash, T0), undefined);
      });

      test('a code is redeemed once: the grant and its tokens are stored; a second redemption revokes them all', async () => {
        const owner = await connector();
        const stored = code(owner.clientId);
        await store.insertAuthorizationCode(stored);
        const first = grant(owner.clientId, T0 + 2_000);
        const tokens = tokensOf(first, T0 + 2_000);
        assert.equal(
          await store.redeemAuthorizationCode(stored.codeHash, first, tokens, T0 + 2_000),
          'issued',
        );
        assert.deepEqual(
          await store.findToken(tokens.accessToken.tokenHash, T0 + 3_000),
          tokens.accessToken,
        );
        assert.deepEqual(await store.findRefreshToken(tokens.refreshToken.tokenHash, T0 + 3_000), {
          refreshToken: tokens.refreshToken,
          grant: first,
          rotated: false,
        });
        assert.equal(
          (await store.findAuthorizationCode(stored.codeHash, T0 + 3_000))?.grantId,
          first.grantId,
        );
        assert.equal((await store.findClient(owner.clientId))?.lastTokenAt, T0 + 2_000);

        const second = grant(owner.clientId, T0 + 4_000);
        const replayTokens = tokensOf(second, T0 + 4_000);
        assert.equal(
          await store.redeemAuthorizationCode(stored.codeHash, second, replayTokens, T0 + 4_000),
          'replayed',
        );
        assert.equal(
          await store.findToken(tokens.accessToken.tokenHash, T0 + 4_000),
          undefined,
          'what the first redemption issued is revoked',
        );
        assert.equal(
          await store.findRefreshToken(tokens.refreshToken.tokenHash, T0 + 4_000),
          undefined,
        );
        assert.equal(
          await store.findToken(replayTokens.accessToken.tokenHash, T0 + 4_000),
          undefined,
          'the replay gets nothing',
        );
        assert.equal(
          await store.redeemAuthorizationCode(
            stored.codeHash,
            grant(owner.clientId),
            tokensOf(second, T0 + 5_000),
            T0 + 5_000,
          ),
          'replayed',
        );
      });

      test('an expired or unknown code is gone, and issues nothing', async () => {
        const owner = await connector();
        const stored = code(owner.clientId);
        await store.insertAuthorizationCode(stored);
        const late = grant(owner.clientId, stored.expiresAt);
        const tokens = tokensOf(late, stored.expiresAt);
        assert.equal(
          await store.redeemAuthorizationCode(stored.codeHash, late, tokens, stored.expiresAt),
          'gone',
        );
        assert.equal(
          await store.findToken(tokens.accessToken.tokenHash, stored.expiresAt),
          undefined,
        );
        assert.equal(
          await store.redeemAuthorizationCode(sha256('never issued'), late, tokensOf(late, T0), T0),
          'gone',
        );
      });

      test('of 20 simultaneous redemptions of one code, exactly one issues', async () => {
        const owner = await connector();
        const stored = code(owner.clientId);
        await store.insertAuthorizationCode(stored);
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, () => {
            const attempt = grant(owner.clientId);
            return store.redeemAuthorizationCode(
              stored.codeHash,
              attempt,
              tokensOf(attempt, T0 + 1_000),
              T0 + 1_000,
            );
          }),
        );
        assert.equal(outcomes.filter((outcome) => outcome === 'issued').length, 1);
        assert.equal(outcomes.filter((outcome) => outcome === 'replayed').length, 19);
      });

      test('a refresh token rotates once; the grant lives on with the new one; reusing the old revokes the family', async () => {
        const { owner, family, first } = await redeemedGrant();

        const at = T0 + 2 * HOUR;
        const second = tokensOf(family, at, 'content:read');
        assert.equal(
          await store.rotateRefreshToken(first.refreshToken.tokenHash, second, at),
          'issued',
        );
        assert.equal(
          (await store.findRefreshToken(first.refreshToken.tokenHash, at))?.rotated,
          true,
        );
        const next = await store.findRefreshToken(second.refreshToken.tokenHash, at);
        assert.deepEqual(next, {
          refreshToken: second.refreshToken,
          grant: { ...family, expiresAt: second.refreshToken.expiresAt },
          rotated: false,
        });
        assert.deepEqual(
          await store.findToken(second.accessToken.tokenHash, at),
          second.accessToken,
        );
        assert.equal((await store.findClient(owner.clientId))?.lastTokenAt, at);

        const stolen = tokensOf(family, at + 1_000);
        assert.equal(
          await store.rotateRefreshToken(first.refreshToken.tokenHash, stolen, at + 1_000),
          'replayed',
        );
        for (const hash of [second.accessToken.tokenHash, stolen.accessToken.tokenHash])
          assert.equal(await store.findToken(hash, at + 1_000), undefined);
        assert.equal(
          await store.findRefreshToken(second.refreshToken.tokenHash, at + 1_000),
          undefined,
          'the newest refresh token went with its grant',
        );
        assert.equal(
          await store.rotateRefreshToken(
            second.refreshToken.tokenHash,
            tokensOf(family, at + 2_000),
            at + 2_000,
          ),
          'gone',
        );
      });

      test('a refresh token is gone once expired, or when presented for another grant', async () => {
        const { owner, family, first } = await redeemedGrant();
        assert.equal(
          await store.rotateRefreshToken(
            first.refreshToken.tokenHash,
            tokensOf(grant(owner.clientId), T0 + 1_000),
            T0 + 1_000,
          ),
          'gone',
        );
        const expiry = first.refreshToken.expiresAt;
        assert.equal(await store.findRefreshToken(first.refreshToken.tokenHash, expiry), undefined);
        assert.equal(
          await store.rotateRefreshToken(
            first.refreshToken.tokenHash,
            tokensOf(family, expiry),
            expiry,
          ),
          'gone',
        );
      });

      test('of 20 simultaneous rotations of one refresh token, exactly one issues', async () => {
        const { family, first } = await redeemedGrant();
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, () =>
            store.rotateRefreshToken(
              first.refreshToken.tokenHash,
              tokensOf(family, T0 + 1_000),
              T0 + 1_000,
            ),
          ),
        );
        assert.equal(outcomes.filter((outcome) => outcome === 'issued').length, 1);
        assert.ok(outcomes.includes('replayed'), 'a reuse after the rotation revokes the family');
      });

      test("a client revokes its own grant with every token, never another client's", async () => {
        const { owner: alice, family, first: tokens } = await redeemedGrant();
        const bob = await connector();
        assert.equal(await store.revokeGrant(family.grantId, bob.clientId), false);
        assert.ok(await store.findToken(tokens.accessToken.tokenHash, T0));
        assert.equal(await store.revokeGrant(family.grantId, alice.clientId), true);
        assert.equal(await store.findToken(tokens.accessToken.tokenHash, T0), undefined);
        assert.equal(await store.findRefreshToken(tokens.refreshToken.tokenHash, T0), undefined);
        assert.equal(await store.revokeGrant(family.grantId, alice.clientId), false);
      });

      test('purging drops expired codes and ended grants; recycling a client takes its grants and their tokens', async () => {
        const { owner, family, first: tokens } = await redeemedGrant();
        const expired = code(owner.clientId);
        await store.insertAuthorizationCode(expired);
        await store.purgeExpired(T0 + 2 * MINUTE);
        assert.equal(
          await store.redeemAuthorizationCode(
            expired.codeHash,
            grant(owner.clientId),
            tokensOf(family, T0),
            T0,
          ),
          'gone',
          'the expired code was purged',
        );
        assert.ok(
          await store.findRefreshToken(tokens.refreshToken.tokenHash, T0 + 2 * MINUTE),
          'a live grant stays',
        );
        await store.purgeExpired(tokens.refreshToken.expiresAt);
        assert.equal(
          await store.findRefreshToken(tokens.refreshToken.tokenHash, T0),
          undefined,
          'the ended grant was purged',
        );

        const { first: otherTokens } = await redeemedGrant();
        assert.equal(await store.deleteIdleClients(T0 + 1), 2);
        assert.equal(await store.findToken(otherTokens.accessToken.tokenHash, T0), undefined);
        assert.equal(
          await store.findRefreshToken(otherTokens.refreshToken.tokenHash, T0),
          undefined,
        );
      });
    });

    describe('keys claimed once (replay windows)', () => {
      test('a key is claimed once until it expires, then again; other keys apart', async () => {
        assert.equal(await store.claimOnce('nonce:a', T0 + 300_000, T0), true);
        assert.equal(await store.claimOnce('nonce:a', T0 + 600_000, T0 + 1_000), false);
        assert.equal(await store.claimOnce('nonce:b', T0 + 300_000, T0 + 1_000), true);
        assert.equal(await store.claimOnce('nonce:a', T0 + 600_000, T0 + 299_999), false);
        assert.equal(
          await store.claimOnce('nonce:a', T0 + 900_000, T0 + 300_000),
          true,
          'expired at its time: free again',
        );
        assert.equal(
          await store.claimOnce('nonce:a', T0 + 900_000, T0 + 600_000),
          false,
          'the new claim holds until its own expiry',
        );
      });

      test('purging drops expired claims and keeps live ones', async () => {
        await store.claimOnce('jti:old', T0 + 1_000, T0);
        await store.claimOnce('jti:live', T0 + HOUR, T0);
        await store.purgeExpired(T0 + 2_000);
        assert.equal(await store.claimOnce('jti:old', T0 + HOUR, T0 + 2_000), true);
        assert.equal(await store.claimOnce('jti:live', T0 + 2 * HOUR, T0 + 2_000), false);
      });

      test('of 50 simultaneous claims of one key, exactly one wins', async () => {
        const won = await Promise.all(
          Array.from({ length: 50 }, () => store.claimOnce('nonce:race', T0 + 300_000, T0)),
        );
        assert.equal(won.filter(Boolean).length, 1);
      });
    });

    describe('client recycling', () => {
      test('clients idle since before the cut-off go, with their tokens; active ones stay', async () => {
        const idle = client({ issuedAt: T0, lastTokenAt: T0 });
        const neverUsedIdle = client({ issuedAt: T0 + 1_000, lastTokenAt: T0 + 1_000 });
        const active = client({ issuedAt: T0, lastTokenAt: T0 });
        for (const record of [idle, neverUsedIdle, active]) await store.createClient(record);
        const idleToken = token(idle.clientId, { issuedAt: T0, expiresAt: T0 + 100 * HOUR });
        await store.insertToken(idleToken);
        await store.insertToken(
          token(active.clientId, { issuedAt: T0 + 10 * HOUR, expiresAt: T0 + 11 * HOUR }),
        );

        assert.equal(await store.deleteIdleClients(T0 + 5 * HOUR), 2);
        assert.equal(await store.findClient(idle.clientId), undefined);
        assert.equal(await store.findClient(neverUsedIdle.clientId), undefined);
        assert.ok(await store.findClient(active.clientId));
        assert.equal(await store.findToken(idleToken.tokenHash, T0 + 6 * HOUR), undefined);
        assert.equal(await store.insertToken(token(idle.clientId)), false);
        assert.equal(await store.deleteIdleClients(T0 + 5 * HOUR), 0);
      });
    });

    describe('traffic counts', () => {
      const request = (day: string, overrides: Partial<TrafficCount> = {}): TrafficCount => ({
        day,
        surface: 'api',
        target: 'read_page',
        page: 'https://example.com/a/',
        family: 'GPTBot',
        count: 1,
        ...overrides,
      });
      const search = (day: string, overrides: Partial<SearchCount> = {}): SearchCount => ({
        day,
        surface: 'mcp',
        family: 'ClaudeBot',
        query: 'grifo roto ñ "x" <b>',
        filters: 'city=madrid',
        results: 0,
        more: false,
        count: 1,
        ...overrides,
      });
      const sorted = <T>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();

      test('an empty store reads no counts', async () => {
        assert.deepEqual(await store.readTraffic('2000-01-01'), { requests: [], searches: [] });
      });

      test('counts of the same day and dimensions add up across batches; other dimensions stay apart', async () => {
        await store.addTraffic({
          requests: [
            request('2027-03-01', { count: 2 }),
            request('2027-03-01', { family: 'other' }),
          ],
          searches: [search('2027-03-01')],
        });
        await store.addTraffic({
          requests: [
            request('2027-03-01', { count: 5 }),
            request('2027-03-02', { surface: 'document', target: '/llms.txt', page: '' }),
          ],
          searches: [
            search('2027-03-01', { count: 3 }),
            search('2027-03-01', { results: 1 }),
            search('2027-03-01', { results: 8, more: true }),
          ],
        });
        const read = await store.readTraffic('2027-03-01');
        assert.deepEqual(
          sorted(read.requests),
          sorted([
            request('2027-03-01', { count: 7 }),
            request('2027-03-01', { family: 'other' }),
            request('2027-03-02', { surface: 'document', target: '/llms.txt', page: '' }),
          ]),
        );
        assert.deepEqual(
          sorted(read.searches),
          sorted([
            search('2027-03-01', { count: 4 }),
            search('2027-03-01', { results: 1 }),
            search('2027-03-01', { results: 8, more: true }),
          ]),
        );
      });

      test('reading from a day leaves out the days before it', async () => {
        await store.addTraffic({
          requests: [request('2027-02-28'), request('2027-03-01')],
          searches: [search('2027-02-28')],
        });
        const read = await store.readTraffic('2027-03-01');
        assert.deepEqual(
          read.requests.map((row) => row.day),
          ['2027-03-01'],
        );
        assert.deepEqual(read.searches, []);
      });

      test('retention deletes exactly the days before the cut-off', async () => {
        await store.addTraffic({
          requests: ['2027-01-30', '2027-01-31', '2027-02-01'].map((day) => request(day)),
          searches: ['2027-01-31', '2027-02-01'].map((day) => search(day)),
        });
        await store.deleteTrafficBefore('2027-02-01');
        const read = await store.readTraffic('2000-01-01');
        assert.deepEqual(
          read.requests.map((row) => row.day),
          ['2027-02-01'],
        );
        assert.deepEqual(
          read.searches.map((row) => row.day),
          ['2027-02-01'],
        );
        await store.deleteTrafficBefore('2027-02-01');
        assert.equal((await store.readTraffic('2000-01-01')).requests.length, 1);
      });

      test('100 batches sent at once all count', async () => {
        await Promise.all(
          Array.from({ length: 100 }, () =>
            store.addTraffic({
              requests: [request('2027-04-01')],
              searches: [search('2027-04-01')],
            }),
          ),
        );
        const read = await store.readTraffic('2027-04-01');
        assert.deepEqual(
          read.requests.map((row) => row.count),
          [100],
        );
        assert.deepEqual(
          read.searches.map((row) => row.count),
          [100],
        );
      });
    });

    for (const counter of ['windows', 'anonymousWindows'] as const) {
      describe(`rate-limit windows (${counter})`, () => {
        const windowMs = 60_000;
        let windows: WindowCounter;
        beforeEach(() => {
          windows = store[counter];
        });

        test('an unused key reads as an empty window starting now', async () => {
          assert.deepEqual(await windows.peek('k:fresh', { windowMs, now: T0 }), {
            count: 0,
            resetAt: T0 + windowMs,
          });
        });

        test('the first hit opens a window; hits count up to the limit, then are refused without counting', async () => {
          const key = `k:${randomUUID()}`;
          assert.deepEqual(await windows.hit(key, { limit: 3, windowMs, now: T0 }), {
            allowed: true,
            count: 1,
            resetAt: T0 + windowMs,
          });
          assert.deepEqual(await windows.hit(key, { limit: 3, windowMs, now: T0 + 10 }), {
            allowed: true,
            count: 2,
            resetAt: T0 + windowMs,
          });
          assert.deepEqual(await windows.hit(key, { limit: 3, windowMs, now: T0 + 20 }), {
            allowed: true,
            count: 3,
            resetAt: T0 + windowMs,
          });
          assert.deepEqual(await windows.hit(key, { limit: 3, windowMs, now: T0 + 30 }), {
            allowed: false,
            count: 3,
            resetAt: T0 + windowMs,
          });
          assert.deepEqual(await windows.peek(key, { windowMs, now: T0 + 40 }), {
            count: 3,
            resetAt: T0 + windowMs,
          });
        });

        test('peeking never counts', async () => {
          const key = `k:${randomUUID()}`;
          await windows.hit(key, { limit: 10, windowMs, now: T0 });
          for (let i = 0; i < 5; i++) await windows.peek(key, { windowMs, now: T0 + i });
          assert.equal((await windows.hit(key, { limit: 10, windowMs, now: T0 + 10 })).count, 2);
        });

        test('the window restarts at its reset time, starting at the first hit after it', async () => {
          const key = `k:${randomUUID()}`;
          for (let i = 0; i < 2; i++) await windows.hit(key, { limit: 2, windowMs, now: T0 });
          assert.equal(
            (await windows.hit(key, { limit: 2, windowMs, now: T0 + windowMs - 1 })).allowed,
            false,
          );
          assert.deepEqual(await windows.peek(key, { windowMs, now: T0 + windowMs }), {
            count: 0,
            resetAt: T0 + 2 * windowMs,
          });
          const later = T0 + windowMs + 5_000;
          assert.deepEqual(await windows.hit(key, { limit: 2, windowMs, now: later }), {
            allowed: true,
            count: 1,
            resetAt: later + windowMs,
          });
        });

        test('keys are counted apart', async () => {
          const [a, b] = [`k:${randomUUID()}`, `k:${randomUUID()}`];
          await windows.hit(a, { limit: 1, windowMs, now: T0 });
          assert.equal((await windows.hit(a, { limit: 1, windowMs, now: T0 })).allowed, false);
          assert.equal((await windows.hit(b, { limit: 1, windowMs, now: T0 })).allowed, true);
        });

        test('a quota lowered below the count refuses at once', async () => {
          const key = `k:${randomUUID()}`;
          for (let i = 0; i < 5; i++) await windows.hit(key, { limit: 10, windowMs, now: T0 });
          assert.deepEqual(await windows.hit(key, { limit: 3, windowMs, now: T0 }), {
            allowed: false,
            count: 5,
            resetAt: T0 + windowMs,
          });
        });

        test('200 simultaneous hits admit exactly the limit', async () => {
          const key = `k:${randomUUID()}`;
          const hits = await Promise.all(
            Array.from({ length: 200 }, (_, i) =>
              windows.hit(key, { limit: 60, windowMs, now: T0 + i }),
            ),
          );
          assert.equal(hits.filter((hit) => hit.allowed).length, 60);
          assert.deepEqual(
            hits
              .filter((hit) => hit.allowed)
              .map((hit) => hit.count)
              .sort((x, y) => x - y),
            Array.from({ length: 60 }, (_, i) => i + 1),
          );
          assert.equal((await windows.peek(key, { windowMs, now: T0 + 300 })).count, 60);
        });
      });
    }
  });
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A client record as registration stores it, for backend-specific tests. */
export function buildClientRecord(clientId: string, at: number): ClientRecord {
  return {
    clientId,
    secretHash: sha256(`secret of ${clientId}`),
    clientName: clientId,
    contacts: [],
    scope: 'content:read quota:read',
    tokenEndpointAuthMethod: 'client_secret_basic',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    issuedAt: at,
    lastTokenAt: at,
  };
}
