-- The store's schema: the sqlite backend (src/store/sqlite-schema.ts) runs these files, and D1 runs them through `wrangler d1 migrations apply`. Never edit a released one: add the next.
-- 4: a private_key_jwt client's public keys, as JSON (ClientRecord.publicKeys in src/store/store.ts); NULL for a client with a secret.
ALTER TABLE clients ADD COLUMN public_keys TEXT;
