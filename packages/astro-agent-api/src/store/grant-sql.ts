import type {
  AuthorizationCodeRecord,
  GrantRecord,
  GrantTokens,
  RedemptionOutcome,
  RefreshTokenRecord,
  Store,
  TokenRecord,
} from './store.ts';

/**
 * The authorization code grant in SQL, the same statements for the sqlite and the D1 backends (both
 * bind `?N` by position): each single-use operation is a list of statements run as one transaction
 * (sqlite: BEGIN IMMEDIATE; D1: a batch), whose outcome is read from the rows each one changed. Every
 * statement after the first is conditional on what the ones before did, so a D1 batch, which cannot
 * branch, decides as the sqlite transaction does.
 */
export interface SqlStatement {
  sql: string;
  params: (string | number | null)[];
}

/** Statements and how to read their outcome from the rows each changed. */
export interface SqlOperation<T> {
  statements: SqlStatement[];
  outcome(changes: number[]): T;
}

/** How a SQL backend runs statements: one, its changed rows; a read, its first row; several, as one transaction. */
export interface SqlRunner {
  run(statement: SqlStatement): Promise<number>;
  first<T>(statement: SqlStatement): Promise<T | undefined>;
  transaction(statements: SqlStatement[]): Promise<number[]>;
}

/** The Store's grant methods over a SQL backend (sqlite-store.ts, d1-store.ts): the same statements on both. */
export function createSqlGrants(
  db: SqlRunner,
): Pick<
  Store,
  | 'insertAuthorizationCode'
  | 'findAuthorizationCode'
  | 'redeemAuthorizationCode'
  | 'findRefreshToken'
  | 'rotateRefreshToken'
  | 'revokeGrant'
> {
  const decide = async <T>({ statements, outcome }: SqlOperation<T>): Promise<T> =>
    outcome(await db.transaction(statements));
  return {
    insertAuthorizationCode: async (code) => (await db.run(insertCodeStatement(code))) > 0,
    async findAuthorizationCode(codeHash, now) {
      const row = await db.first<CodeRow>({ sql: SELECT_CODE, params: [codeHash, now] });
      return row && toCode(row);
    },
    redeemAuthorizationCode: (codeHash, grant, tokens, now) =>
      decide(redeemCodeOperation(codeHash, grant, tokens, now)),
    async findRefreshToken(tokenHash, now) {
      const row = await db.first<RefreshRow>({ sql: SELECT_REFRESH, params: [tokenHash, now] });
      return row && toRefresh(row);
    },
    rotateRefreshToken: (tokenHash, tokens, now) =>
      decide(rotateRefreshOperation(tokenHash, tokens, now)),
    revokeGrant: async (grantId, clientId) =>
      (await db.run({
        sql: 'DELETE FROM grants WHERE grant_id = ?1 AND client_id = ?2',
        params: [grantId, clientId],
      })) > 0,
  };
}

interface CodeRow {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  issued_at: number;
  expires_at: number;
  grant_id: string | null;
}

interface RefreshRow {
  token_hash: string;
  grant_id: string;
  issued_at: number;
  expires_at: number;
  rotated: number;
  client_id: string;
  scope: string;
  resource: string;
  grant_issued_at: number;
  grant_expires_at: number;
}

const SELECT_CODE = 'SELECT * FROM authorization_codes WHERE code_hash = ?1 AND expires_at > ?2';

const SELECT_REFRESH = `SELECT r.token_hash, r.grant_id, r.issued_at, r.expires_at, r.rotated, g.client_id, g.scope, g.resource,
  g.issued_at AS grant_issued_at, g.expires_at AS grant_expires_at
  FROM refresh_tokens r JOIN grants g ON g.grant_id = r.grant_id WHERE r.token_hash = ?1 AND r.expires_at > ?2`;

function toCode(row: CodeRow): AuthorizationCodeRecord & { grantId?: string } {
  return {
    codeHash: row.code_hash,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    resource: row.resource,
    scope: row.scope,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    ...(row.grant_id === null ? {} : { grantId: row.grant_id }),
  };
}

function toRefresh(row: RefreshRow): {
  refreshToken: RefreshTokenRecord;
  grant: GrantRecord;
  rotated: boolean;
} {
  return {
    refreshToken: {
      tokenHash: row.token_hash,
      grantId: row.grant_id,
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
    },
    grant: {
      grantId: row.grant_id,
      clientId: row.client_id,
      scope: row.scope,
      resource: row.resource,
      issuedAt: row.grant_issued_at,
      expiresAt: row.grant_expires_at,
    },
    rotated: row.rotated === 1,
  };
}

/** Inserts a code while its client exists; one row changed when stored. */
function insertCodeStatement(code: AuthorizationCodeRecord): SqlStatement {
  return {
    sql: `INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, code_challenge, resource, scope, issued_at, expires_at)
      SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM clients WHERE client_id = ?2)`,
    params: [
      code.codeHash,
      code.clientId,
      code.redirectUri,
      code.codeChallenge,
      code.resource,
      code.scope,
      code.issuedAt,
      code.expiresAt,
    ],
  };
}

/**
 * The access token and the next refresh token of a grant, stored only when `guard` holds: an SQL
 * condition on ?1 and ?2, bound to `guardParams` (the statements' own values follow from ?3).
 */
function grantTokenStatements(
  tokens: GrantTokens,
  guard: string,
  guardParams: [string, string],
): SqlStatement[] {
  const { accessToken: access, refreshToken: refresh } = tokens;
  return [
    {
      sql: `INSERT INTO refresh_tokens (token_hash, grant_id, issued_at, expires_at) SELECT ?3, ?4, ?5, ?6 WHERE ${guard}`,
      params: [
        ...guardParams,
        refresh.tokenHash,
        refresh.grantId,
        refresh.issuedAt,
        refresh.expiresAt,
      ],
    },
    {
      sql: `INSERT INTO access_tokens (token_hash, client_id, scope, issued_at, expires_at, grant_id) SELECT ?3, ?4, ?5, ?6, ?7, ?8 WHERE ${guard}`,
      params: [
        ...guardParams,
        access.tokenHash,
        access.clientId,
        access.scope,
        access.issuedAt,
        access.expiresAt,
        access.grantId ?? null,
      ],
    },
    {
      sql: `UPDATE clients SET last_token_at = max(last_token_at, ?3) WHERE client_id = ?4 AND ${guard}`,
      params: [...guardParams, access.issuedAt, access.clientId],
    },
  ];
}

/**
 * Store.redeemAuthorizationCode: a replay deletes the grant of the first redemption (its tokens go
 * with it, ON DELETE CASCADE), the first redemption marks the code with the new grant, and only a code
 * so marked gets the grant and its tokens.
 */
function redeemCodeOperation(
  codeHash: string,
  grant: GrantRecord,
  tokens: GrantTokens,
  now: number,
): SqlOperation<RedemptionOutcome> {
  const redeemed =
    'EXISTS (SELECT 1 FROM authorization_codes WHERE code_hash = ?1 AND grant_id = ?2)';
  const guardParams: [string, string] = [codeHash, grant.grantId];
  return {
    statements: [
      // Changes its row (to the same value) only when the code was redeemed before: the outcome's `replayed`.
      {
        sql: 'UPDATE authorization_codes SET grant_id = grant_id WHERE code_hash = ?1 AND grant_id IS NOT NULL',
        params: [codeHash],
      },
      {
        sql: 'DELETE FROM grants WHERE grant_id = (SELECT grant_id FROM authorization_codes WHERE code_hash = ?1)',
        params: [codeHash],
      },
      {
        sql: 'UPDATE authorization_codes SET grant_id = ?2 WHERE code_hash = ?1 AND grant_id IS NULL AND expires_at > ?3',
        params: [codeHash, grant.grantId, now],
      },
      {
        sql: `INSERT INTO grants (grant_id, client_id, scope, resource, issued_at, expires_at) SELECT ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${redeemed}`,
        params: [
          ...guardParams,
          grant.clientId,
          grant.scope,
          grant.resource,
          grant.issuedAt,
          grant.expiresAt,
        ],
      },
      ...grantTokenStatements(tokens, redeemed, guardParams),
    ],
    outcome: ([redeemedBefore, , marked]) =>
      marked === 1 ? 'issued' : redeemedBefore === 1 ? 'replayed' : 'gone',
  };
}

/**
 * Store.rotateRefreshToken: a rotated token's reuse deletes its grant (and so itself and every token of
 * the grant); an unrotated one is marked rotated, and only then are the next tokens stored and the
 * grant's end moved. A token found rotated after the first statement was rotated by the second: one
 * rotated before went with its grant.
 */
function rotateRefreshOperation(
  tokenHash: string,
  tokens: GrantTokens,
  now: number,
): SqlOperation<RedemptionOutcome> {
  const rotated =
    'EXISTS (SELECT 1 FROM refresh_tokens WHERE token_hash = ?1 AND grant_id = ?2 AND rotated = 1)';
  const { refreshToken: next } = tokens;
  const guardParams: [string, string] = [tokenHash, next.grantId];
  return {
    statements: [
      {
        sql: 'DELETE FROM grants WHERE grant_id = (SELECT grant_id FROM refresh_tokens WHERE token_hash = ?1 AND rotated = 1 AND expires_at > ?2)',
        params: [tokenHash, now],
      },
      {
        sql: 'UPDATE refresh_tokens SET rotated = 1 WHERE token_hash = ?1 AND grant_id = ?2 AND rotated = 0 AND expires_at > ?3',
        params: [...guardParams, now],
      },
      ...grantTokenStatements(tokens, rotated, guardParams),
      {
        sql: `UPDATE grants SET expires_at = max(expires_at, ?3) WHERE grant_id = ?2 AND ${rotated}`,
        params: [...guardParams, next.expiresAt],
      },
    ],
    outcome: ([revoked, marked]) => (marked === 1 ? 'issued' : revoked! > 0 ? 'replayed' : 'gone'),
  };
}

/** What purgeExpired deletes besides windows, claims and access tokens: expired codes, refresh tokens and the grants they ended. */
export function purgeGrantStatements(now: number): SqlStatement[] {
  return [
    { sql: 'DELETE FROM authorization_codes WHERE expires_at <= ?1', params: [now] },
    { sql: 'DELETE FROM refresh_tokens WHERE expires_at <= ?1', params: [now] },
    { sql: 'DELETE FROM grants WHERE expires_at <= ?1', params: [now] },
  ];
}

/** A token row's grant, for TokenRecord. */
export function grantOf(row: { grant_id?: string | null }): Pick<TokenRecord, 'grantId'> {
  return row.grant_id ? { grantId: row.grant_id } : {};
}
