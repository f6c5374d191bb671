import { ApiError } from '../contract/api-error.ts';

/** Deeper JSON is refused before it is parsed: no body of this service nests beyond a few levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * A request body as UTF-8 text, read up to `maxBytes`: a larger one is refused with 413 as soon as
 * it crosses the cap, a body the client abandoned half-way with 400 (an ordinary client failure, not
 * the server's: nothing is logged), and bytes that are not UTF-8 with 400.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  // The rest of the body is never read, so the connection cannot carry another request: close it.
  const tooLarge = () =>
    new ApiError(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes.`, {
      hint: 'Send a smaller body: no request to this service needs that much.',
      headers: { Connection: 'close' },
    });
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge();
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (cause) {
      throw new ApiError(400, 'incomplete_body', 'The request body ended before it was complete.', {
        hint: 'Send the whole body (as its Content-Length says) in one request.',
        cause,
      });
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError(400, 'invalid_encoding', 'The request body is not valid UTF-8.', {
      hint: 'Encode the body as UTF-8.',
    });
  }
}

/**
 * JSON text as a value, or undefined when it is not JSON. Nesting beyond MAX_JSON_DEPTH is a 400
 * before anything parses it: JSON.parse copes, but whatever walks the value afterwards (a
 * serializer, a validator) recurses once per level and would overflow the stack.
 */
export function parseJsonText(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new ApiError(
      400,
      'too_deeply_nested',
      `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`,
      {
        hint: 'Send the flat objects the documentation describes.',
      },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Deepest nesting of `[`/`{` outside strings, in one pass without recursion. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}
