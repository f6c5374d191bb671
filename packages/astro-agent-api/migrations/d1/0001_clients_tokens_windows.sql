-- astro-agent-api store, migration 1 (the same as migration 1 of src/store/sqlite-schema.ts).
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
