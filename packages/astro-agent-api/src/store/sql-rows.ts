import type { ClientPublicKeys, ClientRecord, TokenRecord } from './store.ts';

/** Rows of the tables of sqlite-schema.ts, as the sqlite and D1 backends read them. */
export interface WindowRow {
  count: number;
  reset_at: number;
}

export interface ClientRow {
  client_id: string;
  secret_hash: string;
  client_name: string;
  contacts: string;
  scope: string;
  token_endpoint_auth_method: ClientRecord['tokenEndpointAuthMethod'];
  issued_at: number;
  last_token_at: number;
  /** ClientRecord.publicKeys as JSON, NULL without (migration 0004). */
  public_keys: string | null;
}

export interface TokenRow {
  token_hash: string;
  client_id: string;
  scope: string;
  issued_at: number;
  expires_at: number;
}

export function toClientRecord(row: ClientRow): ClientRecord {
  return {
    clientId: row.client_id,
    secretHash: row.secret_hash,
    clientName: row.client_name,
    contacts: JSON.parse(row.contacts) as string[],
    scope: row.scope,
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    issuedAt: row.issued_at,
    lastTokenAt: row.last_token_at,
    ...(row.public_keys === null ? {} : { publicKeys: JSON.parse(row.public_keys) as ClientPublicKeys }),
  };
}

/** The public_keys column of a client: its keys as JSON, or NULL. */
export function toPublicKeysColumn(client: ClientRecord): string | null {
  return client.publicKeys === undefined ? null : JSON.stringify(client.publicKeys);
}

export function toTokenRecord(row: TokenRow): TokenRecord {
  return {
    tokenHash: row.token_hash,
    clientId: row.client_id,
    scope: row.scope,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
  };
}
