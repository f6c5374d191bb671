import type { z } from 'zod';
import { LIMITS } from '../../contract/limits.ts';
import { parseJsonText, readBodyText } from '../read-body.ts';
import { OAuthError } from './oauth-error.ts';

/** Form parameters of a request, each present at most once; empty values count as absent (RFC 6749 §3.2). */
export type FormParams = Readonly<Record<string, string>>;

/** RFC 6749 §3.2 — `application/x-www-form-urlencoded` body; a repeated parameter is `invalid_request`. */
export async function parseFormBody(request: Request): Promise<FormParams> {
  assertMediaType(request, 'application/x-www-form-urlencoded');
  const params = new URLSearchParams(await readBodyText(request, LIMITS.oauthBodyBytes));
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (values.has(name))
      throw new OAuthError(
        400,
        'invalid_request',
        `The parameter ${name} is repeated; send it once.`,
      );
    values.set(name, value);
  }
  return Object.fromEntries([...values].filter(([, value]) => value !== ''));
}

/** RFC 7591 §3.1 — a JSON object body. */
export async function parseJsonObjectBody(request: Request): Promise<Record<string, unknown>> {
  assertMediaType(request, 'application/json');
  const value = parseJsonText(await readBodyText(request, LIMITS.oauthBodyBytes));
  if (value === undefined)
    throw new OAuthError(400, 'invalid_request', 'The body is not valid JSON.');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OAuthError(
      400,
      'invalid_request',
      'The body must be a JSON object of client metadata.',
    );
  }
  // Without a prototype, a member the client did not send reads as absent whatever its name.
  return Object.assign(Object.create(null) as Record<string, unknown>, value);
}

function assertMediaType(request: Request, expected: string): void {
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== expected) {
    throw new OAuthError(
      400,
      'invalid_request',
      `Send the body as ${expected}${mediaType ? `, not ${mediaType}` : ' (Content-Type is missing)'}.`,
    );
  }
}

/**
 * A request's parameters checked against their schema (oauth-contract.ts). The first problem is the
 * answer: its message is the schema's own, with the RFC error code that `codeOf` gives it.
 */
export function parseOAuthParams<T extends z.ZodType>(
  schema: T,
  params: unknown,
  codeOf: (issue: z.core.$ZodIssue) => string,
): z.output<T> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new OAuthError(400, codeOf(issue), issue.message);
}
