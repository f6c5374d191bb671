import { consoleLogger } from '../shared/logger.ts';
import { createClient, ErrorReply } from 'redis';
import { createCircuitBreaker } from './circuit-breaker.ts';
import { createFallbackWindowCounter } from './fallback-windows.ts';
import { REDIS_DEFAULTS } from '../environment.ts';
import { REDIS_SCRIPTS } from './redis-scripts.ts';
import type {
  AuthorizationCodeRecord,
  ClientPublicKeys,
  ClientRecord,
  GrantTokens,
  RedemptionOutcome,
  SearchCount,
  Store,
  TokenRecord,
  TrafficCount,
  WindowCounter,
} from './store.ts';
import { StoreUnavailableError } from './store-unavailable.ts';

export interface RedisStoreOptions {
  /** REDIS_URL, e.g. `redis://127.0.0.1:6379/0` or `rediss://user:password@host:6380`. */
  url: string;
  /** Prefix of every key, so one Redis can hold several sites; default REDIS_DEFAULTS (environment.ts). */
  keyPrefix?: string;
  /** Longest wait for Redis on a request (AGENT_API_REDIS_TIMEOUT_MS); default REDIS_DEFAULTS. */
  timeoutMs?: number;
  /** Bound of the per-instance anonymous windows used while Redis is unreachable. */
  anonymousWindowsMax?: number;
  /** Connection events and the switch to and from per-instance windows; default the console. */
  warn?: (message: string) => void;
}

/** Entries handled per script call by the sweeps, so one call never blocks Redis for long. */
const SWEEP_BATCH = 500;
/** Commands waiting for Redis at most; beyond that a request fails at once instead of piling up. */
const MAX_PENDING_COMMANDS = 10_000;
/**
 * After a command times out, how long every command fails at once before one probes Redis again: a
 * Redis that hangs holds one request per second for its timeout, not every request (and an MCP
 * batch not once per message).
 */
const HUNG_COOL_DOWN_MS = 1_000;

/** What a command that outlived its timeout rejects with: the failure that opens the circuit. */
class RedisTimeoutError extends Error {}

/**
 * The shared backend for several instances behind a load balancer: clients, hashed tokens and every
 * rate-limit window (anonymous ones too) live in one Redis, so quotas, tokens and revocations hold
 * across instances. Each method is one round trip (a command or a Lua script of redis-scripts.ts).
 *
 * Availability: opening fails with a clear message when Redis cannot be reached (a server must not
 * start on a split state). Once open, a lost connection makes every method throw StoreUnavailableError
 * (503) at once, and a hung Redis after `timeoutMs` once, then at once for a second before a command
 * probes it again (circuit-breaker.ts), while the client reconnects in the background with a capped
 * back-off; anonymous windows fall back to per-instance memory meanwhile.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<Store> {
  const prefix = options.keyPrefix ?? REDIS_DEFAULTS.keyPrefix;
  const timeoutMs = options.timeoutMs ?? REDIS_DEFAULTS.timeoutMs;
  const warn = options.warn ?? consoleLogger.warn;
  const where = describeRedisUrl(options.url);
  let everReady = false;
  let lost = false;

  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by tsc from its one assignment, createClient's result for these scripts (a long generic to restate)
  let client;
  try {
    client = createClient({
      url: options.url,
      // A command sent while disconnected fails at once instead of waiting in a queue for a reconnection.
      disableOfflineQueue: true,
      commandsQueueMaxLength: MAX_PENDING_COMMANDS,
      scripts: REDIS_SCRIPTS,
      socket: {
        connectTimeout: Math.max(timeoutMs, 1_000),
        // At start-up, no retry: the caller exits with a message. Later, reconnect for ever with an
        // exponential back-off capped at 2 s plus jitter, so instances do not reconnect in lockstep.
        reconnectStrategy: (retries) =>
          everReady ? Math.min(50 * 2 ** retries, 2_000) + Math.floor(Math.random() * 200) : false,
      },
    });
  } catch (error) {
    throw new Error(
      `REDIS_URL is not a valid Redis URL (${where}): ${describeCause(error)}. ` +
        'Use the form redis://[user:password@]host[:port][/db] (rediss:// for TLS), or unset REDIS_URL to use the embedded sqlite store.',
    );
  }

  // Without a listener an 'error' event would crash the process; it fires on every failed retry, so
  // only the first of an outage is logged.
  client.on('error', (error: unknown) => {
    if (!everReady || lost) return;
    lost = true;
    warn(
      `agent-api: lost the connection to Redis at ${where} (${describeCause(error)}); reconnecting. OAuth and token requests answer 503 until it returns.`,
    );
  });
  client.on('ready', () => {
    everReady = true;
    if (!lost) return;
    lost = false;
    warn(`agent-api: reconnected to Redis at ${where}.`);
  });

  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw new Error(
      `Cannot reach Redis at ${where} (REDIS_URL): ${describeCause(error)}. The agent API keeps clients, tokens and ` +
        'quotas in Redis when REDIS_URL is set, and does not fall back to its embedded store, which would split them ' +
        'from the other instances. Start Redis or fix REDIS_URL, or unset REDIS_URL to run one instance on the embedded sqlite store.',
    );
  }
  const redis = client;

  const breaker = createCircuitBreaker({
    coolDownMs: HUNG_COOL_DOWN_MS,
    opensOn: (error) =>
      error instanceof StoreUnavailableError && error.cause instanceof RedisTimeoutError,
  });

  /**
   * Runs one round trip, bounded by `timeoutMs`; connection trouble becomes StoreUnavailableError. A
   * disconnected client fails at once by itself; a hung Redis, through the circuit breaker.
   */
  async function run<T>(command: () => Promise<T>): Promise<T> {
    if (!redis.isReady) throw new StoreUnavailableError('redis');
    return breaker.run(
      async () => {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new RedisTimeoutError(`Redis did not answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        });
        try {
          return await Promise.race([command(), deadline]);
        } catch (error) {
          throw isUnavailable(error) ? new StoreUnavailableError('redis', error) : error;
        } finally {
          clearTimeout(timer);
        }
      },
      () =>
        new StoreUnavailableError(
          'redis',
          new Error(
            `Redis did not answer within ${timeoutMs} ms a moment ago; it is tried again every ${HUNG_COOL_DOWN_MS} ms`,
          ),
        ),
    );
  }

  const key = {
    client: (clientId: string) => `${prefix}client:${clientId}`,
    clientTokens: (clientId: string) => `${prefix}client-tokens:${clientId}`,
    token: (tokenHash: string) => `${prefix}token:${tokenHash}`,
    window: (name: string) => `${prefix}window:${name}`,
    claim: (name: string) => `${prefix}claim:${name}`,
    code: (codeHash: string) => `${prefix}code:${codeHash}`,
    grant: (grantId: string) => `${prefix}grant:${grantId}`,
    refresh: (tokenHash: string) => `${prefix}refresh:${tokenHash}`,
    lastToken: `${prefix}clients:last-token`,
    expiry: `${prefix}tokens:expiry`,
    codesExpiry: `${prefix}codes:expiry`,
    grantsExpiry: `${prefix}grants:expiry`,
    requests: (day: string) => `${prefix}traffic:requests:${day}`,
    searches: (day: string) => `${prefix}traffic:searches:${day}`,
    trafficDays: `${prefix}traffic:days`,
  };

  const windows: WindowCounter = {
    async hit(name, { limit, windowMs, now }) {
      const [allowed, count, resetAt] = await run(() =>
        redis.hitWindow(key.window(name), now, Math.ceil(windowMs), limit),
      );
      return { allowed: allowed === 1, count, resetAt };
    },
    async peek(name, { windowMs, now }) {
      const [start, ms, count] = (
        await run(() => redis.hmGet(key.window(name), ['start', 'ms', 'count']))
      ).map(Number);
      if (!(start! + ms! > now) || !Number.isFinite(count))
        return { count: 0, resetAt: now + windowMs };
      return { count: count!, resetAt: start! + ms! };
    },
  };

  return {
    backend: 'redis',
    windows,
    anonymousWindows: createFallbackWindowCounter(windows, {
      max: options.anonymousWindowsMax,
      warn,
    }),

    async createClient(record) {
      const created = await run(() =>
        redis.createClient(
          key.client(record.clientId),
          key.lastToken,
          record.clientId,
          String(record.lastTokenAt),
          [
            'secretHash',
            record.secretHash,
            'clientName',
            record.clientName,
            'contacts',
            JSON.stringify(record.contacts),
            'scope',
            record.scope,
            'tokenEndpointAuthMethod',
            record.tokenEndpointAuthMethod,
            'grantTypes',
            JSON.stringify(record.grantTypes),
            'redirectUris',
            JSON.stringify(record.redirectUris),
            'issuedAt',
            String(record.issuedAt),
            'lastTokenAt',
            String(record.lastTokenAt),
            ...(record.publicKeys === undefined
              ? []
              : ['publicKeys', JSON.stringify(record.publicKeys)]),
          ],
        ),
      );
      if (created !== 1) throw new Error(`client_id ${record.clientId} is already registered`);
    },

    async findClient(clientId) {
      const fields = await run(() => redis.hGetAll(key.client(clientId)));
      return fields.secretHash === undefined ? undefined : toClientRecord(clientId, fields);
    },

    async insertToken(token) {
      const inserted = await run(() =>
        redis.insertToken(
          [
            key.client(token.clientId),
            key.lastToken,
            key.token(token.tokenHash),
            key.clientTokens(token.clientId),
            key.expiry,
          ],
          [
            token.clientId,
            token.tokenHash,
            token.scope,
            String(token.issuedAt),
            String(token.expiresAt),
          ],
        ),
      );
      return inserted === 1;
    },

    async findToken(tokenHash, now) {
      const fields = await run(() => redis.hGetAll(key.token(tokenHash)));
      if (fields.clientId === undefined) return undefined;
      const token = toTokenRecord(tokenHash, fields);
      return token.expiresAt > now ? token : undefined;
    },

    async deleteToken(tokenHash, clientId) {
      const deleted = await run(() =>
        redis.deleteToken(
          [key.token(tokenHash), key.clientTokens(clientId), key.expiry],
          clientId,
          tokenHash,
        ),
      );
      return deleted === 1;
    },

    async claimOnce(name, expiresAt, now) {
      return (await run(() => redis.claimOnce(key.claim(name), expiresAt, now))) === 1;
    },

    async insertAuthorizationCode(code) {
      const fields = Object.entries(code).flatMap(([name, value]) => [name, String(value)]);
      return (
        (await run(() =>
          redis.insertAuthorizationCode(
            [key.client(code.clientId), key.code(code.codeHash), key.codesExpiry],
            String(code.expiresAt),
            code.codeHash,
            fields,
          ),
        )) === 1
      );
    },

    async findAuthorizationCode(codeHash, now) {
      const fields = await run(() => redis.hGetAll(key.code(codeHash)));
      if (fields.clientId === undefined || !(Number(fields.expiresAt) > now)) return undefined;
      return toCodeRecord(codeHash, fields);
    },

    async redeemAuthorizationCode(codeHash, grant, tokens, now) {
      const reply = await run(() =>
        redis.redeemAuthorizationCode(key.code(codeHash), [
          prefix,
          String(now),
          grant.grantId,
          grant.scope,
          grant.resource,
          String(grant.issuedAt),
          String(grant.expiresAt),
          ...tokenArguments(tokens),
        ]),
      );
      return REDEMPTION_OUTCOMES[reply]!;
    },

    async findRefreshToken(tokenHash, now) {
      const fields = await run(() => redis.hGetAll(key.refresh(tokenHash)));
      if (fields.grantId === undefined || !(Number(fields.expiresAt) > now)) return undefined;
      const grant = await run(() => redis.hGetAll(key.grant(fields.grantId!)));
      if (grant.clientId === undefined) return undefined;
      return {
        refreshToken: {
          tokenHash,
          grantId: fields.grantId,
          issuedAt: Number(fields.issuedAt),
          expiresAt: Number(fields.expiresAt),
        },
        grant: {
          grantId: fields.grantId,
          clientId: grant.clientId,
          scope: grant.scope!,
          resource: grant.resource!,
          issuedAt: Number(grant.issuedAt),
          expiresAt: Number(grant.expiresAt),
        },
        rotated: fields.rotated === '1',
      };
    },

    async rotateRefreshToken(tokenHash, tokens, now) {
      const reply = await run(() =>
        redis.rotateRefreshToken(key.refresh(tokenHash), [
          prefix,
          String(now),
          tokens.refreshToken.grantId,
          ...tokenArguments(tokens),
        ]),
      );
      return REDEMPTION_OUTCOMES[reply]!;
    },

    async revokeGrant(grantId, clientId) {
      return (
        (await run(() => redis.revokeGrant(key.grant(grantId), prefix, grantId, clientId))) === 1
      );
    },

    // Redis already drops token, window and claim keys when they expire; this trims the expiry index and
    // deletes what Redis has not dropped yet (its clock may lag the caller's).
    async purgeExpired(now) {
      let handled: number;
      do
        handled = await run(() =>
          redis.purgeExpiredGrants(
            [key.codesExpiry, key.grantsExpiry],
            String(now),
            SWEEP_BATCH,
            prefix,
          ),
        );
      while (handled === SWEEP_BATCH);
      let removed = 0;
      for (;;) {
        const [handled, deleted] = await run(() =>
          redis.purgeExpiredTokens(key.expiry, String(now), SWEEP_BATCH, prefix),
        );
        removed += deleted;
        if (handled < SWEEP_BATCH) return removed;
      }
    },

    async deleteIdleClients(idleSince) {
      let deleted = 0;
      for (;;) {
        const batch = await run(() =>
          redis.deleteIdleClients(
            [key.lastToken, key.expiry],
            String(idleSince),
            SWEEP_BATCH,
            prefix,
          ),
        );
        deleted += batch;
        if (batch < SWEEP_BATCH) return deleted;
      }
    },

    // One hash per day and kind, a field per dimensions (a JSON array), and the days in a sorted set
    // for retention: a batch is one MULTI, so instances add up and a batch lands whole.
    async addTraffic({ requests, searches }) {
      if (requests.length === 0 && searches.length === 0) return;
      const multi = redis.multi();
      const days = new Set<string>();
      for (const r of requests) {
        multi.hIncrBy(
          key.requests(r.day),
          JSON.stringify([r.surface, r.target, r.page, r.family]),
          r.count,
        );
        days.add(r.day);
      }
      for (const s of searches) {
        multi.hIncrBy(
          key.searches(s.day),
          JSON.stringify([s.surface, s.family, s.query, s.filters, s.results, s.more]),
          s.count,
        );
        days.add(s.day);
      }
      multi.zAdd(
        key.trafficDays,
        [...days].map((day) => ({ score: Date.parse(day), value: day })),
      );
      await run(() => multi.exec());
    },

    async readTraffic(sinceDay) {
      const days = await run(() =>
        redis.zRangeByScore(key.trafficDays, Date.parse(sinceDay), '+inf'),
      );
      const multi = redis.multi();
      for (const day of days) multi.hGetAll(key.requests(day)).hGetAll(key.searches(day));
      const replies =
        days.length === 0
          ? []
          : ((await run(() => multi.exec())) as unknown as Record<string, string>[]);
      const batch: { requests: TrafficCount[]; searches: SearchCount[] } = {
        requests: [],
        searches: [],
      };
      days.forEach((day, i) => {
        for (const [field, count] of Object.entries(replies[2 * i]!)) {
          const [surface, target, page, family] = JSON.parse(field) as string[];
          batch.requests.push({
            day,
            surface: surface!,
            target: target!,
            page: page!,
            family: family!,
            count: Number(count),
          });
        }
        for (const [field, count] of Object.entries(replies[2 * i + 1]!)) {
          const [surface, family, query, filters, results, more] = JSON.parse(field) as [
            string,
            string,
            string,
            string,
            number,
            boolean,
          ];
          batch.searches.push({
            day,
            surface,
            family,
            query,
            filters,
            results,
            more,
            count: Number(count),
          });
        }
      });
      return batch;
    },

    async deleteTrafficBefore(day) {
      const old = await run(() =>
        redis.zRangeByScore(key.trafficDays, '-inf', `(${Date.parse(day)}`),
      );
      if (old.length === 0) return;
      const multi = redis.multi();
      for (const gone of old)
        multi.del([key.requests(gone), key.searches(gone)]).zRem(key.trafficDays, gone);
      await run(() => multi.exec());
    },

    async close() {
      if (!redis.isOpen) return;
      // A graceful close waits for pending replies; a hung Redis must not hold the shutdown.
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        redis.close().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      if (!closed) redis.destroy();
    },
  };
}

/**
 * Errors that mean "Redis cannot answer now" rather than a bug: anything from the connection (closed,
 * offline, timed out, queue full) and the replies of a Redis that is loading, busy, read-only (a
 * replica during a failover), full (maxmemory) or unable to persist.
 */
function isUnavailable(error: unknown): boolean {
  if (!(error instanceof ErrorReply)) return true;
  return /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS|OOM|MISCONF)\b/.test(
    error.message,
  );
}

/** The URL without its password, for messages and logs. */
function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return JSON.stringify(url.replace(/:[^:@/]*@/, ':***@'));
  }
}

function describeCause(error: unknown): string {
  // A refused connection to a name with several addresses is an AggregateError with an empty message.
  const inner =
    error instanceof Error && 'cause' in error && error.cause instanceof Error
      ? error.cause
      : error;
  if (inner instanceof AggregateError && inner.errors.length > 0)
    return describeCause(inner.errors[0]);
  if (inner instanceof Error)
    return inner.message || ('code' in inner ? String(inner.code) : inner.name);
  return String(inner);
}

function toClientRecord(clientId: string, fields: Record<string, string>): ClientRecord {
  return {
    clientId,
    secretHash: fields.secretHash!,
    clientName: fields.clientName!,
    contacts: JSON.parse(fields.contacts ?? '[]') as string[],
    scope: fields.scope!,
    tokenEndpointAuthMethod:
      fields.tokenEndpointAuthMethod as ClientRecord['tokenEndpointAuthMethod'],
    // A client registered before these fields existed had the only grant there was.
    grantTypes: JSON.parse(
      fields.grantTypes ?? '["client_credentials"]',
    ) as ClientRecord['grantTypes'],
    redirectUris: JSON.parse(fields.redirectUris ?? '[]') as string[],
    issuedAt: Number(fields.issuedAt),
    lastTokenAt: Number(fields.lastTokenAt),
    ...(fields.publicKeys === undefined
      ? {}
      : { publicKeys: JSON.parse(fields.publicKeys) as ClientPublicKeys }),
  };
}

function toTokenRecord(tokenHash: string, fields: Record<string, string>): TokenRecord {
  return {
    tokenHash,
    clientId: fields.clientId!,
    scope: fields.scope!,
    ...(fields.grantId === undefined ? {} : { grantId: fields.grantId }),
    issuedAt: Number(fields.issuedAt),
    expiresAt: Number(fields.expiresAt),
  };
}

function toCodeRecord(
  codeHash: string,
  fields: Record<string, string>,
): AuthorizationCodeRecord & { grantId?: string } {
  return {
    codeHash,
    clientId: fields.clientId!,
    redirectUri: fields.redirectUri!,
    codeChallenge: fields.codeChallenge!,
    resource: fields.resource!,
    scope: fields.scope!,
    issuedAt: Number(fields.issuedAt),
    expiresAt: Number(fields.expiresAt),
    ...(fields.grantId === undefined ? {} : { grantId: fields.grantId }),
  };
}

/** The replies of the grant scripts (redis-scripts.ts). */
const REDEMPTION_OUTCOMES: Readonly<Record<number, RedemptionOutcome>> = {
  0: 'gone',
  1: 'issued',
  2: 'replayed',
};

/** A grant's next tokens as the grant scripts take them: access token, its scope, issue time and expiry, then refresh token and its expiry. */
function tokenArguments({
  accessToken: access,
  refreshToken: refresh,
}: GrantTokens): [string, string, string, string, string, string] {
  return [
    access.tokenHash,
    access.scope,
    String(access.issuedAt),
    String(access.expiresAt),
    refresh.tokenHash,
    String(refresh.expiresAt),
  ];
}
