import { defineScript, type CommandParser } from 'redis';

/**
 * The Lua scripts of the redis store. Each runs atomically in Redis in one round trip, so several
 * instances sharing a Redis never interleave inside one operation. Arguments stay the strings the
 * caller formatted (Lua 5.1 would print large numbers as 1.8e+12). Scripts that reach keys derived
 * from stored data take the key prefix as an argument: standalone Redis (or a primary with replicas),
 * not Redis Cluster.
 *
 * Layout under the prefix:
 * - `client:<id>` hash (secretHash, clientName, contacts, scope, method, grantTypes and redirectUris as JSON, issuedAt, lastTokenAt, and publicKeys as JSON for a private_key_jwt client)
 * - `clients:last-token` sorted set: client id by lastTokenAt, for recycling
 * - `token:<sha256>` hash (clientId, scope, issuedAt, expiresAt, and grantId for a grant's), PEXPIREAT its expiry
 * - `client-tokens:<id>` sorted set: the client's token hashes by expiry, to delete them with it
 * - `code:<sha256>` hash (clientId, redirectUri, codeChallenge, resource, scope, issuedAt, expiresAt, and grantId once redeemed), PEXPIREAT its expiry
 * - `grant:<id>` hash (clientId, scope, resource, issuedAt, expiresAt), PEXPIREAT its expiry
 * - `grant-tokens:<id>` set: the keys (`token:<sha256>`, `refresh:<sha256>`) of everything issued under the grant, to revoke them with it
 * - `refresh:<sha256>` hash (grantId, issuedAt, expiresAt, rotated), PEXPIREAT its expiry
 * - `client-grants:<id>` sorted set: the client's grant ids by expiry, to delete them with it
 * - `codes:expiry`, `grants:expiry` sorted sets: every code hash and grant id by expiry, for purgeExpired
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
  parseCommand(
    parser: CommandParser,
    clientKey: string,
    lastTokenKey: string,
    clientId: string,
    lastTokenAt: string,
    fields: string[],
  ) {
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
  parseCommand(
    parser: CommandParser,
    keys: [token: string, clientTokens: string, expiry: string],
    clientId: string,
    tokenHash: string,
  ) {
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
  parseCommand(
    parser: CommandParser,
    expiryKey: string,
    now: string,
    batch: number,
    prefix: string,
  ) {
    parser.pushKey(expiryKey);
    parser.push(now, String(batch), prefix);
  },
  transformReply: (reply: unknown) => (reply as unknown[]).map(int) as [number, number],
});

/**
 * Lua shared by the grant scripts (ARGV[1] is the key prefix in each). `revokeGrant` deletes a grant,
 * every token issued under it and its place in the client's indexes; `storeGrantTokens` stores a
 * grant's access token and next refresh token, moves the grant's end to the refresh token's and the
 * client's last token request forward. Numbers stay the strings the caller formatted.
 */
const GRANT_LUA = `
local function revokeGrant(p, grantId)
  local grantKey = p .. 'grant:' .. grantId
  local family = p .. 'grant-tokens:' .. grantId
  local clientId = redis.call('HGET', grantKey, 'clientId')
  for _, member in ipairs(redis.call('SMEMBERS', family)) do
    redis.call('DEL', p .. member)
    if string.sub(member, 1, 6) == 'token:' then
      local hash = string.sub(member, 7)
      redis.call('ZREM', p .. 'tokens:expiry', hash)
      if clientId then redis.call('ZREM', p .. 'client-tokens:' .. clientId, hash) end
    end
  end
  redis.call('DEL', family, grantKey)
  redis.call('ZREM', p .. 'grants:expiry', grantId)
  if clientId then redis.call('ZREM', p .. 'client-grants:' .. clientId, grantId) end
  return clientId
end

local function storeGrantTokens(p, grantId, clientId, access, scope, issuedAt, accessExpiresAt, refresh, refreshExpiresAt)
  local tokenKey = p .. 'token:' .. access
  redis.call('HSET', tokenKey, 'clientId', clientId, 'scope', scope, 'issuedAt', issuedAt, 'expiresAt', accessExpiresAt, 'grantId', grantId)
  redis.call('PEXPIREAT', tokenKey, accessExpiresAt)
  local clientTokens = p .. 'client-tokens:' .. clientId
  redis.call('ZREMRANGEBYSCORE', clientTokens, '-inf', issuedAt)
  redis.call('ZADD', clientTokens, accessExpiresAt, access)
  redis.call('ZADD', p .. 'tokens:expiry', accessExpiresAt, access)
  local refreshKey = p .. 'refresh:' .. refresh
  redis.call('HSET', refreshKey, 'grantId', grantId, 'issuedAt', issuedAt, 'expiresAt', refreshExpiresAt, 'rotated', '0')
  redis.call('PEXPIREAT', refreshKey, refreshExpiresAt)
  local grantKey = p .. 'grant:' .. grantId
  local family = p .. 'grant-tokens:' .. grantId
  redis.call('SADD', family, 'token:' .. access, 'refresh:' .. refresh)
  if tonumber(refreshExpiresAt) > tonumber(redis.call('HGET', grantKey, 'expiresAt')) then
    redis.call('HSET', grantKey, 'expiresAt', refreshExpiresAt)
  end
  local ends = redis.call('HGET', grantKey, 'expiresAt')
  redis.call('PEXPIREAT', grantKey, ends)
  redis.call('PEXPIREAT', family, ends)
  local clientGrants = p .. 'client-grants:' .. clientId
  redis.call('ZREMRANGEBYSCORE', clientGrants, '-inf', issuedAt)
  redis.call('ZADD', clientGrants, ends, grantId)
  redis.call('ZADD', p .. 'grants:expiry', ends, grantId)
  local clientKey = p .. 'client:' .. clientId
  if tonumber(issuedAt) > tonumber(redis.call('HGET', clientKey, 'lastTokenAt')) then
    redis.call('HSET', clientKey, 'lastTokenAt', issuedAt)
    redis.call('ZADD', p .. 'clients:last-token', issuedAt, clientId)
  end
end
`;

/** Stores an authorization code while its client exists. Replies 1 when stored. */
export const insertAuthorizationCode = defineScript({
  NUMBER_OF_KEYS: 3,
  SCRIPT: `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
redis.call('PEXPIREAT', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
return 1`,
  parseCommand(
    parser: CommandParser,
    keys: [client: string, code: string, codesExpiry: string],
    expiresAt: string,
    codeHash: string,
    fields: string[],
  ) {
    parser.pushKeys(keys);
    parser.push(expiresAt, codeHash, ...fields);
  },
  transformReply: int,
});

/**
 * Removes up to `batch` codes and `batch` grants that expired at `now` (a grant with every token
 * issued under it), those Redis has not expired yet included. Replies the entries handled.
 */
export const purgeExpiredGrants = defineScript({
  NUMBER_OF_KEYS: 2,
  SCRIPT: `${GRANT_LUA}
local p = ARGV[3]
local codes = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, hash in ipairs(codes) do
  redis.call('DEL', p .. 'code:' .. hash)
  redis.call('ZREM', KEYS[1], hash)
end
local grants = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, grantId in ipairs(grants) do
  revokeGrant(p, grantId)
  redis.call('ZREM', KEYS[2], grantId)
end
return math.max(#codes, #grants)`,
  parseCommand(
    parser: CommandParser,
    keys: [codesExpiry: string, grantsExpiry: string],
    now: string,
    batch: number,
    prefix: string,
  ) {
    parser.pushKeys(keys);
    parser.push(now, String(batch), prefix);
  },
  transformReply: int,
});

/**
 * Redeems a code once (Store.redeemAuthorizationCode). Replies 1 issued, 2 replayed (the grant of the
 * first redemption is revoked), 0 gone (unknown, expired, or its client recycled).
 */
export const redeemAuthorizationCode = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `${GRANT_LUA}
local p, now = ARGV[1], tonumber(ARGV[2])
local code = redis.call('HMGET', KEYS[1], 'clientId', 'expiresAt', 'grantId')
if not code[1] then return 0 end
if code[3] then
  revokeGrant(p, code[3])
  return 2
end
if tonumber(code[2]) <= now then return 0 end
if redis.call('EXISTS', p .. 'client:' .. code[1]) == 0 then return 0 end
local grantId = ARGV[3]
redis.call('HSET', KEYS[1], 'grantId', grantId)
redis.call('HSET', p .. 'grant:' .. grantId, 'clientId', code[1], 'scope', ARGV[4], 'resource', ARGV[5], 'issuedAt', ARGV[6], 'expiresAt', ARGV[7])
storeGrantTokens(p, grantId, code[1], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13])
return 1`,
  parseCommand(
    parser: CommandParser,
    codeKey: string,
    args: [
      prefix: string,
      now: string,
      grantId: string,
      grantScope: string,
      resource: string,
      grantIssuedAt: string,
      grantExpiresAt: string,
      access: string,
      scope: string,
      issuedAt: string,
      accessExpiresAt: string,
      refresh: string,
      refreshExpiresAt: string,
    ],
  ) {
    parser.pushKey(codeKey);
    parser.push(...args);
  },
  transformReply: int,
});

/** Rotates a refresh token once (Store.rotateRefreshToken). Replies 1 issued, 2 replayed (its grant is revoked), 0 gone. */
export const rotateRefreshToken = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `${GRANT_LUA}
local p, now, grantId = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local refresh = redis.call('HMGET', KEYS[1], 'grantId', 'expiresAt', 'rotated')
if not refresh[1] or tonumber(refresh[2]) <= now or refresh[1] ~= grantId then return 0 end
if refresh[3] == '1' then
  revokeGrant(p, grantId)
  return 2
end
local clientId = redis.call('HGET', p .. 'grant:' .. grantId, 'clientId')
if not clientId then return 0 end
redis.call('HSET', KEYS[1], 'rotated', '1')
storeGrantTokens(p, grantId, clientId, ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9])
return 1`,
  parseCommand(
    parser: CommandParser,
    refreshKey: string,
    args: [
      prefix: string,
      now: string,
      grantId: string,
      access: string,
      scope: string,
      issuedAt: string,
      accessExpiresAt: string,
      refresh: string,
      refreshExpiresAt: string,
    ],
  ) {
    parser.pushKey(refreshKey);
    parser.push(...args);
  },
  transformReply: int,
});

/** Revokes a grant only when it belongs to the client. Replies 1 when revoked. */
export const revokeGrant = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `${GRANT_LUA}
if redis.call('HGET', KEYS[1], 'clientId') ~= ARGV[3] then return 0 end
revokeGrant(ARGV[1], ARGV[2])
return 1`,
  parseCommand(
    parser: CommandParser,
    grantKey: string,
    prefix: string,
    grantId: string,
    clientId: string,
  ) {
    parser.pushKey(grantKey);
    parser.push(prefix, grantId, clientId);
  },
  transformReply: int,
});

/**
 * Recycles up to `batch` clients whose last token request is before `idleSince`, with their grants and tokens.
 * One script per batch: two instances sweeping at once each delete a client at most once between
 * them, and a token issued concurrently either lands before (the client is no longer idle) or is refused.
 */
export const deleteIdleClients = defineScript({
  NUMBER_OF_KEYS: 2,
  SCRIPT: `${GRANT_LUA}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  local grantsKey = ARGV[3] .. 'client-grants:' .. id
  for _, grantId in ipairs(redis.call('ZRANGE', grantsKey, 0, -1)) do revokeGrant(ARGV[3], grantId) end
  redis.call('DEL', grantsKey)
  local tokensKey = ARGV[3] .. 'client-tokens:' .. id
  for _, hash in ipairs(redis.call('ZRANGE', tokensKey, 0, -1)) do
    redis.call('DEL', ARGV[3] .. 'token:' .. hash)
    redis.call('ZREM', KEYS[2], hash)
  end
  redis.call('DEL', tokensKey, ARGV[3] .. 'client:' .. id)
  redis.call('ZREM', KEYS[1], id)
end
return #ids`,
  parseCommand(
    parser: CommandParser,
    keys: [lastToken: string, expiry: string],
    idleSince: string,
    batch: number,
    prefix: string,
  ) {
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

export const REDIS_SCRIPTS = {
  hitWindow,
  createClient,
  insertToken,
  deleteToken,
  purgeExpiredTokens,
  deleteIdleClients,
  claimOnce,
  insertAuthorizationCode,
  purgeExpiredGrants,
  redeemAuthorizationCode,
  rotateRefreshToken,
  revokeGrant,
};
