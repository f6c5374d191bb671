-- The store's schema: the sqlite backend (src/store/sqlite-schema.ts) runs these files, and D1 runs them through `wrangler d1 migrations apply`. Never edit a released one: add the next.
-- 3: keys claimed once until they expire: the nonces of signed requests and the jti of client assertions (Store.claimOnce in src/store/store.ts).
CREATE TABLE claims (
  key TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX claims_by_expiry ON claims (expires_at);
