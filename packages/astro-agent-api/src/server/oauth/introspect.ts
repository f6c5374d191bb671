import { hashSecret, isAccessTokenShape } from './credentials.ts';
import { readAuthenticatedForm } from './client-auth.ts';
import {
  introspectionRequestSchema,
  type introspectionResponseSchema,
} from '../../contract/oauth-contract.ts';
import type { z } from 'zod';
import { oauthJson } from './oauth-error.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseOAuthParams } from './parse-body.ts';

/**
 * RFC 7662 §2.1 — token introspection, open only to authenticated clients and only about their own
 * tokens: another client's token reads `{active: false}` like an unknown one (§2.2).
 */
export async function handleIntrospectionRequest(
  request: Request,
  deps: OAuthEndpointDeps,
): Promise<Response> {
  const { form, client, now } = await readAuthenticatedForm(request, deps, {
    publicClients: false,
  });
  const { token } = parseOAuthParams(introspectionRequestSchema, form, () => 'invalid_request');
  const record = isAccessTokenShape(token)
    ? await deps.store.findToken(hashSecret(token), now)
    : undefined;
  const inactive: z.input<typeof introspectionResponseSchema> = { active: false };
  if (record === undefined || record.clientId !== client.clientId) return oauthJson(200, inactive);
  const active: z.input<typeof introspectionResponseSchema> = {
    active: true,
    client_id: record.clientId,
    scope: record.scope,
    token_type: 'Bearer',
    exp: Math.floor(record.expiresAt / 1000),
    iat: Math.floor(record.issuedAt / 1000),
  };
  return oauthJson(200, active);
}
