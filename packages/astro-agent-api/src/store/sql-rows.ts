import { grantOf } from './grant-sql.ts';
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
  /** ClientRecord.grantTypes and redirectUris as JSON (migration 0005). */
  grant_types: string;
  redirect_uris: string;
}

export interface TokenRow {
  token_hash: string;
  client_id: string;
  scope: string;
  issued_at: number;
  expires_at: number;
  grant_id: string | null;
}

export function toClientRecord(row: ClientRow): ClientRecord {
  return {
    clientId: row.client_id,
    secretHash: row.secret_hash,
    clientName: row.client_name,
    contacts: JSON.parse(row.contacts) as string[],
    scope: row.scope,
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    grantTypes: JSON.parse(row.grant_types) as ClientRecord['grantTypes'],
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    issuedAt: row.issued_at,
    lastTokenAt: row.last_token_at,
    ...(row.public_keys === null
      ? {}
      : { publicKeys: JSON.parse(row.public_keys) as ClientPublicKeys }),
  };
}

/** The columns of a client record, in the order of CLIENT_COLUMNS. */
export function toClientColumns(client: ClientRecord): (string | number | null)[] {
  return [
    client.clientId,
    client.secretHash,
    client.clientName,
    JSON.stringify(client.contacts),
    client.scope,
    client.tokenEndpointAuthMethod,
    client.issuedAt,
    client.lastTokenAt,
    toPublicKeysColumn(client),
    JSON.stringify(client.grantTypes),
    JSON.stringify(client.redirectUris),
  ];
}

/** INSERT of a client, bound by toClientColumns. */
export const INSERT_CLIENT = `INSERT INTO clients (client_id, secret_hash, client_name, contacts, scope, token_endpoint_auth_method, issued_at, last_token_at, public_keys, grant_types, redirect_uris)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`;

/** The public_keys column of a client: its keys as JSON, or NULL. */
export function toPublicKeysColumn(client: ClientRecord): string | null {
  return client.publicKeys === undefined ? null : JSON.stringify(client.publicKeys);
}

export function toTokenRecord(row: TokenRow): TokenRecord {
  return {
    tokenHash: row.token_hash,
    clientId: row.client_id,
    scope: row.scope,
    ...grantOf(row),
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
  };
}
