import type { ClientRecord } from '../../store/store.ts';
import { hashesMatch, hashSecret } from './credentials.ts';
import { OAuthError } from './oauth-error.ts';
import { LIMITS } from '../../contract/limits.ts';
import { assertOAuthLimitOpen, consumeOAuthLimit } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import {
  JWT_BEARER_ASSERTION_TYPE,
  PRIVATE_KEY_JWT,
  PUBLIC_CLIENT,
} from '../../contract/oauth-contract.ts';
import { ClientError, findKnownClient, type KnownClient } from './known-client.ts';
import { verifyClientAssertion } from './client-assertion.ts';
import { parseFormBody, type FormParams } from './parse-body.ts';

// Compared against when the client_id is unknown, so that case takes as long as a wrong secret.
const UNKNOWN_CLIENT_HASH = hashSecret('no client has this secret');

/** Endpoint deps the client authentication reads. */
type AuthDeps = Pick<
  OAuthEndpointDeps,
  'store' | 'address' | 'clients' | 'audiences' | 'signedAgent'
> & { now: number };

/**
 * RFC 6749 §2.3.1 — authenticates the client of a token, revocation or introspection request by
 * `client_secret_basic`, `client_secret_post` or, for a client with keys (registered with them, or
 * identified by its metadata document), `private_key_jwt` (RFC 7523 §2.2); never two at once (§2.3),
 * and never a secret for a client that has none. A public client (`none`, RFC 6749 §2.1) names itself
 * with `client_id` alone, where `publicClients` allows it (the token and revocation endpoints). Failed
 * attempts are counted per network; once their limit is reached the network gets 429 before its
 * credentials are even checked.
 */
export async function authenticateClient(
  request: Request,
  form: FormParams,
  deps: AuthDeps,
  { publicClients }: { publicClients: boolean },
): Promise<ClientRecord> {
  const { store, address, now } = deps;
  const failedAuthLimit = LIMITS.oauth.failedAuthentication;
  await assertOAuthLimitOpen(store.windows, address, failedAuthLimit, now);

  const fail = async (description: string): Promise<never> => {
    await consumeOAuthLimit(store.windows, address, failedAuthLimit, now);
    throw invalidClient(description);
  };
  if (form.client_assertion !== undefined || form.client_assertion_type !== undefined) {
    if (request.headers.has('authorization') || form.client_secret !== undefined) {
      throw new OAuthError(
        400,
        'invalid_request',
        'Use one client authentication method: a client_assertion, Authorization: Basic or a client_secret, not two.',
      );
    }
    if (
      form.client_assertion_type !== JWT_BEARER_ASSERTION_TYPE ||
      form.client_assertion === undefined
    ) {
      return fail(
        `private_key_jwt needs client_assertion_type=${JWT_BEARER_ASSERTION_TYPE} and a client_assertion (RFC 7523 §2.2).`,
      );
    }
    try {
      return await verifyClientAssertion(form.client_assertion, {
        ...deps,
        claimedClientId: form.client_id,
      });
    } catch (error) {
      if (error instanceof ClientError) return fail(error.message);
      throw error;
    }
  }

  const credentials = readClientCredentials(request, form);
  if (credentials === 'malformed')
    return fail('The Authorization header is not valid client_secret_basic credentials.');
  if (!('secret' in credentials)) {
    if (!publicClients)
      return fail(
        'This endpoint needs client authentication: a public client (token_endpoint_auth_method none) cannot use it.',
      );
    let client: KnownClient;
    try {
      client = await findKnownClient(credentials.clientId, deps);
    } catch (error) {
      if (error instanceof ClientError) return fail(error.message);
      throw error;
    }
    if (client.method !== PUBLIC_CLIENT) {
      return fail(
        `The client ${credentials.clientId} is not a public client: authenticate with ${client.method === PRIVATE_KEY_JWT ? `a client_assertion (${PRIVATE_KEY_JWT})` : 'its client secret (client_secret_basic or client_secret_post)'}.`,
      );
    }
    return client.record();
  }

  const client =
    credentials.clientId.length <= 200 ? await store.findClient(credentials.clientId) : undefined;
  // Always one constant-time comparison, known client or not.
  const secretMatches = hashesMatch(
    client?.secretHash ?? UNKNOWN_CLIENT_HASH,
    hashSecret(credentials.secret),
  );
  if (client?.tokenEndpointAuthMethod === PRIVATE_KEY_JWT) {
    return fail(
      `This client has no secret: it authenticates with ${PRIVATE_KEY_JWT}, client_assertion_type=${JWT_BEARER_ASSERTION_TYPE} and a client_assertion signed with its key (RFC 7523 §2.2).`,
    );
  }
  if (client?.tokenEndpointAuthMethod === PUBLIC_CLIENT) {
    return fail(
      'This client has no secret: it is a public client (token_endpoint_auth_method none) and sends its client_id alone.',
    );
  }
  if (client === undefined || !secretMatches) return fail('Unknown client or wrong client secret.');
  return client;
}

/** The form body of a token, revocation or introspection request, and the client it authenticates. */
export async function readAuthenticatedForm(
  request: Request,
  deps: OAuthEndpointDeps,
  options: { publicClients: boolean },
): Promise<{ form: FormParams; client: ClientRecord; now: number }> {
  const form = await parseFormBody(request);
  const now = deps.now();
  const client = await authenticateClient(request, form, { ...deps, now }, options);
  return { form, client, now };
}

/** RFC 6749 §5.2 — 401 `invalid_client`, with the scheme the client should authenticate with. */
export function invalidClient(description: string): OAuthError {
  return new OAuthError(401, 'invalid_client', description, {
    'WWW-Authenticate': 'Basic realm="agent-api", charset="UTF-8"',
  });
}

/** The credentials a request carries: an id and secret, or (a public client's) an id alone. */
function readClientCredentials(
  request: Request,
  form: FormParams,
): { clientId: string; secret: string } | { clientId: string } | 'malformed' {
  const authorization = request.headers.get('authorization');
  const bodyId = form.client_id;
  const bodySecret = form.client_secret;
  if (authorization !== null) {
    if (bodySecret !== undefined) {
      throw new OAuthError(
        400,
        'invalid_request',
        'Use one client authentication method: Authorization: Basic or client_secret in the body, not both.',
      );
    }
    const basic = parseBasicCredentials(authorization);
    if (basic === undefined) return 'malformed';
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw new OAuthError(
        400,
        'invalid_request',
        'The client_id in the body differs from the one in the Authorization header.',
      );
    }
    return basic;
  }
  if (bodySecret !== undefined) {
    if (bodyId === undefined)
      throw new OAuthError(400, 'invalid_request', 'client_secret was sent without client_id.');
    return { clientId: bodyId, secret: bodySecret };
  }
  if (bodyId !== undefined) return { clientId: bodyId };
  throw invalidClient(
    "Client authentication is required: send Authorization: Basic (client_secret_basic), client_id and client_secret in the body (client_secret_post), a client_assertion (private_key_jwt), or a public client's client_id alone.",
  );
}

/** RFC 6749 §2.3.1 — Basic credentials whose id and secret were form-urlencoded before base64. */
function parseBasicCredentials(
  authorization: string,
): { clientId: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const clientId = formUrlDecode(decoded.slice(0, colon));
    const secret = formUrlDecode(decoded.slice(colon + 1));
    return clientId === '' || secret === '' ? undefined : { clientId, secret };
  } catch {
    return undefined;
  }
}

function formUrlDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
