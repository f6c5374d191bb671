-- The store's schema: the sqlite backend (src/store/sqlite-schema.ts) runs these files, and D1 runs them through `wrangler d1 migrations apply`. Never edit a released one: add the next.
-- 5: the authorization code grant (AuthorizationCodeRecord, GrantRecord, RefreshTokenRecord in src/store/store.ts). Clients gain their grant types and redirect URIs (JSON); a registered client from before kept the only grant there was.
ALTER TABLE clients ADD COLUMN grant_types TEXT NOT NULL DEFAULT '["client_credentials"]';
ALTER TABLE clients ADD COLUMN redirect_uris TEXT NOT NULL DEFAULT '[]';

-- One authorization of one client: the family of its refresh and access tokens, deleted with it.
CREATE TABLE grants (
  grant_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX grants_client_id ON grants (client_id);
CREATE INDEX grants_expires_at ON grants (expires_at);

-- grant_id: set by the code's one redemption, so that a second one can revoke what the first issued.
CREATE TABLE authorization_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  grant_id TEXT
) STRICT;
CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at);
CREATE INDEX authorization_codes_client_id ON authorization_codes (client_id);

-- A rotated refresh token stays until it expires: its reuse revokes the grant.
CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES grants (grant_id) ON DELETE CASCADE,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX refresh_tokens_grant_id ON refresh_tokens (grant_id);
CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at);

ALTER TABLE access_tokens ADD COLUMN grant_id TEXT REFERENCES grants (grant_id) ON DELETE CASCADE;
CREATE INDEX access_tokens_grant_id ON access_tokens (grant_id);
