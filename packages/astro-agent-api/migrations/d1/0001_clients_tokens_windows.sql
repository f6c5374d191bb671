-- The store's schema: the sqlite backend (src/store/sqlite-schema.ts) runs these files, and D1 runs them through `wrangler d1 migrations apply`. Never edit a released one: add the next.
-- 1: clients, hashed access tokens, rate-limit windows. Times in ms since the epoch.
CREATE TABLE clients (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL,
  client_name TEXT NOT NULL,
  contacts TEXT NOT NULL,
  scope TEXT NOT NULL,
  token_endpoint_auth_method TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  last_token_at INTEGER NOT NULL
) STRICT;
CREATE INDEX clients_last_token_at ON clients (last_token_at);

CREATE TABLE access_tokens (
  token_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX access_tokens_client_id ON access_tokens (client_id);
CREATE INDEX access_tokens_expires_at ON access_tokens (expires_at);

CREATE TABLE rate_windows (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  window_ms INTEGER NOT NULL,
  count INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
