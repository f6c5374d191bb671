import { OAuthError } from './oauth-error.ts';

/** Bodies of the OAuth endpoints are a few hundred bytes; anything bigger is refused before it is read whole. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/** Form parameters of a request, each present at most once; empty values count as absent (RFC 6749 §3.2). */
export interface FormParams {
  get(name: string): string | undefined;
}

/** RFC 6749 §3.2 — `application/x-www-form-urlencoded` body; a repeated parameter is `invalid_request`. */
export async function parseFormBody(request: Request, maxBytes: number): Promise<FormParams> {
  assertMediaType(request, 'application/x-www-form-urlencoded');
  const params = new URLSearchParams(await readBodyText(request, maxBytes));
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (values.has(name)) throw new OAuthError(400, 'invalid_request', `The parameter ${name} is repeated; send it once.`);
    values.set(name, value);
  }
  return { get: (name) => values.get(name) || undefined };
}

/** RFC 7591 §3.1 — a JSON object body. */
export async function parseJsonObjectBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  assertMediaType(request, 'application/json');
  const text = await readBodyText(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OAuthError(400, 'invalid_request', 'The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OAuthError(400, 'invalid_request', 'The body must be a JSON object of client metadata.');
  }
  return value as Record<string, unknown>;
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

/** Reads at most `maxBytes` of UTF-8, refusing larger bodies with 413 as soon as they cross the cap. */
async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  // The rest of the body is never read, so the connection cannot carry another request: close it.
  const tooLarge = () =>
    new OAuthError(413, 'invalid_request', `The body is larger than ${maxBytes} bytes.`, { Connection: 'close' });
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge();
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new OAuthError(400, 'invalid_request', 'The body is not valid UTF-8.');
  }
}
