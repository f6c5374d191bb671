import { defineScript, type CommandParser } from 'redis';

/**
 * The Lua scripts of the redis store. Each runs atomically in Redis in one round trip, so several
 * instances sharing a Redis never interleave inside one operation. Arguments stay the strings the
 * caller formatted (Lua 5.1 would print large numbers as 1.8e+12). Scripts that reach keys derived
 * from stored data take the key prefix as an argument: standalone Redis (or a primary with replicas),
 * not Redis Cluster.
 *
 * Layout under the prefix:
 * - `client:<id>` hash (secretHash, clientName, contacts, scope, method, issuedAt, lastTokenAt, and publicKeys as JSON for a private_key_jwt client)
 * - `clients:last-token` sorted set: client id by lastTokenAt, for recycling
 * - `token:<sha256>` hash (clientId, scope, issuedAt, expiresAt), PEXPIREAT its expiry
 * - `client-tokens:<id>` sorted set: the client's token hashes by expiry, to delete them with it
 * - `tokens:expiry` sorted set: every token hash by expiry, for purgeExpired
 * - `window:<key>` hash (start, ms, count), PEXPIRE its window
 * - `claim:<key>` string: the claim's expiry, PEXPIRE until then
 * - `traffic:requests:<day>`, `traffic:searches:<day>` hashes of counts, `traffic:days` sorted set of their days (redis-store.ts)
 */

const int = (reply: unknown) => Number(reply);

/** Counts one hit in a fixed window: opens a new one, counts, or refuses without counting. Replies {allowed, count, resetAt}. */
export const hitWindow = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
local now = tonumber(ARGV[1])
local w = redis.call('HMGET', KEYS[1], 'start', 'ms', 'count')
local start, ms, count = tonumber(w[1]), tonumber(w[2]), tonumber(w[3])
if not start or not ms or not count or now >= start + ms then
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'ms', ARGV[2], 'count', 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, 1, now + tonumber(ARGV[2])}
end
if count >= tonumber(ARGV[3]) then
  return {0, count, start + ms}
end
return {1, redis.call('HINCRBY', KEYS[1], 'count', 1), start + ms}`,
  parseCommand(parser: CommandParser, key: string, now: number, windowMs: number, limit: number) {
    parser.pushKey(key);
    parser.push(String(now), String(windowMs), String(limit));
  },
  transformReply: (reply: unknown) => (reply as unknown[]).map(int) as [number, number, number],
});

/** Registers a client unless its id exists. Replies 1 when created. */
export const createClient = defineScript({
  NUMBER_OF_KEYS: 2,
  SCRIPT: `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1`,
  parseCommand(parser: CommandParser, clientKey: string, lastTokenKey: string, clientId: string, lastTokenAt: string, fields: string[]) {
    parser.pushKeys([clientKey, lastTokenKey]);
    parser.push(clientId, lastTokenAt, ...fields);
  },
  transformReply: int,
});

/**
 * Stores a token and moves the client's last token request forward, both or neither; refuses (0) when
 * the client is gone, so a token never outlives a recycled client. The client's expired token hashes
 * are trimmed from its index on the way.
 */
export const insertToken = defineScript({
  NUMBER_OF_KEYS: 5,
  SCRIPT: `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(ARGV[4]) > tonumber(redis.call('HGET', KEYS[1], 'lastTokenAt')) then
  redis.call('HSET', KEYS[1], 'lastTokenAt', ARGV[4])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
end
redis.call('HSET', KEYS[3], 'clientId', ARGV[1], 'scope', ARGV[3], 'issuedAt', ARGV[4], 'expiresAt', ARGV[5])
redis.call('PEXPIREAT', KEYS[3], ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[2])
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[2])
return 1`,
  parseCommand(
    parser: CommandParser,
    keys: [client: string, lastToken: string, token: string, clientTokens: string, expiry: string],
    args: [clientId: string, tokenHash: string, scope: string, issuedAt: string, expiresAt: string],
  ) {
    parser.pushKeys(keys);
    parser.push(...args);
  },
  transformReply: int,
});

/** Deletes a token only when it belongs to the client. Replies 1 when deleted. */
export const deleteToken = defineScript({
  NUMBER_OF_KEYS: 3,
  SCRIPT: `
if redis.call('HGET', KEYS[1], 'clientId') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1`,
  parseCommand(parser: CommandParser, keys: [token: string, clientTokens: string, expiry: string], clientId: string, tokenHash: string) {
    parser.pushKeys(keys);
    parser.push(clientId, tokenHash);
  },
  transformReply: int,
});

/**
 * Removes up to `batch` tokens expired at `now` (expiresAt ≤ now) from the indexes, deleting those Redis
 * has not expired yet. Replies {index entries handled, token keys deleted}.
 */
export const purgeExpiredTokens = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
local hashes = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local removed = 0
for _, hash in ipairs(hashes) do
  local key = ARGV[3] .. 'token:' .. hash
  local clientId = redis.call('HGET', key, 'clientId')
  if clientId then
    redis.call('ZREM', ARGV[3] .. 'client-tokens:' .. clientId, hash)
    removed = removed + redis.call('DEL', key)
  end
  redis.call('ZREM', KEYS[1], hash)
end
return {#hashes, removed}`,
  parseCommand(parser: CommandParser, expiryKey: string, now: string, batch: number, prefix: string) {
    parser.pushKey(expiryKey);
    parser.push(now, String(batch), prefix);
  },
  transformReply: (reply: unknown) => (reply as unknown[]).map(int) as [number, number],
});

/**
 * Recycles up to `batch` clients whose last token request is before `idleSince`, with their tokens.
 * One script per batch: two instances sweeping at once each delete a client at most once between
 * them, and a token issued concurrently either lands before (the client is no longer idle) or is refused.
 */
export const deleteIdleClients = defineScript({
  NUMBER_OF_KEYS: 2,
  SCRIPT: `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  local tokensKey = ARGV[3] .. 'client-tokens:' .. id
  for _, hash in ipairs(redis.call('ZRANGE', tokensKey, 0, -1)) do
    redis.call('DEL', ARGV[3] .. 'token:' .. hash)
    redis.call('ZREM', KEYS[2], hash)
  end
  redis.call('DEL', tokensKey, ARGV[3] .. 'client:' .. id)
  redis.call('ZREM', KEYS[1], id)
end
return #ids`,
  parseCommand(parser: CommandParser, keys: [lastToken: string, expiry: string], idleSince: string, batch: number, prefix: string) {
    parser.pushKeys(keys);
    parser.push(idleSince, String(batch), prefix);
  },
  transformReply: int,
});

/** Claims a key until an expiry (caller's clock), unless a claim not yet expired holds it. Replies 1 when claimed. */
export const claimOnce = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > tonumber(ARGV[2]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', math.max(1, tonumber(ARGV[1]) - tonumber(ARGV[2])))
return 1`,
  parseCommand(parser: CommandParser, key: string, expiresAt: number, now: number) {
    parser.pushKey(key);
    parser.push(String(expiresAt), String(now));
  },
  transformReply: int,
});

export const REDIS_SCRIPTS = { hitWindow, createClient, insertToken, deleteToken, purgeExpiredTokens, deleteIdleClients, claimOnce };
