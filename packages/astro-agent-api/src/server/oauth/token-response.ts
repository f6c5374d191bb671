import type { z } from 'zod';
import { LIMITS } from '../../contract/limits.ts';
import type { tokenResponseSchema } from '../../contract/oauth-contract.ts';
import { oauthJson } from './oauth-error.ts';

/** RFC 6749 §5.1 — the access token response of every grant, with the grant's next refresh token when it has one; never cached. */
export function tokenResponse(
  issued: { accessToken: string; scope: string; refreshToken?: string },
  headers: Record<string, string> = {},
): Response {
  const token: z.input<typeof tokenResponseSchema> = {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: LIMITS.accessTokenSeconds,
    scope: issued.scope,
    ...(issued.refreshToken !== undefined && { refresh_token: issued.refreshToken }),
  };
  return oauthJson(200, token, headers);
}
