import { createHash, timingSafeEqual } from 'node:crypto';

/** A `cursor` that is malformed or belongs to another query, filter or build. */
export class InvalidCursorError extends Error {
  constructor(
    message = 'The cursor is not valid for this query: pass the `next_cursor` of the previous response unchanged, or leave it out to start again.',
  ) {
    super(message);
    this.name = 'InvalidCursorError';
  }
}

/** Cursors hold an offset below this (3 varint bytes), so with the 6-byte tag they are 12 base64url characters at most. */
export const MAX_CURSOR_OFFSET = 2 ** 21 - 1;
export const MAX_CURSOR_LENGTH = 12;
const TAG_BYTES = 6;

/** What a cursor is bound to: the same build, normalised query and filters give the same cursors. */
export interface CursorScope {
  buildId: string;
  query: string;
  /** The facet filters of the search. */
  filters: Record<string, string>;
}

/**
 * `offset` as a varint followed by 6 bytes of SHA-256 over the scope and the offset, in base64url.
 * The tag is not a secret: it only makes a cursor from another query, filter or build (or a mistyped
 * one) fail loudly instead of silently paging through the wrong list. Forging one gains nothing.
 */
export function encodeCursor(offset: number, scope: CursorScope): string {
  if (!Number.isInteger(offset) || offset < 1 || offset > MAX_CURSOR_OFFSET) {
    throw new RangeError(`cursor offset out of range: ${offset}`);
  }
  const varint = encodeVarint(offset);
  const bytes = new Uint8Array(varint.length + TAG_BYTES);
  bytes.set(varint);
  bytes.set(buildTag(offset, scope), varint.length);
  return Buffer.from(bytes).toString('base64url');
}

/** The offset carried by `cursor`; throws InvalidCursorError when it is malformed or from another scope. */
export function decodeCursor(cursor: string, scope: CursorScope): number {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw new InvalidCursorError();
  const bytes = Buffer.from(cursor, 'base64url');
  // Reject non-canonical spellings (padding bits set) so each offset has exactly one cursor.
  if (bytes.toString('base64url') !== cursor) throw new InvalidCursorError();
  const varint = decodeVarint(bytes);
  if (!varint || bytes.length !== varint.length + TAG_BYTES) throw new InvalidCursorError();
  const tag = bytes.subarray(varint.length);
  if (!timingSafeEqual(tag, buildTag(varint.value, scope))) throw new InvalidCursorError();
  return varint.value;
}

function buildTag(offset: number, scope: CursorScope): Uint8Array {
  // JSON keeps the fields apart whatever characters they contain.
  const filters = Object.entries(scope.filters).sort(([a], [b]) => (a < b ? -1 : 1));
  const input = JSON.stringify(['search-cursor-v1', scope.buildId, scope.query, filters, offset]);
  return createHash('sha256').update(input).digest().subarray(0, TAG_BYTES);
}

/** LEB128: 7 bits per byte, high bit set on every byte but the last. */
function encodeVarint(value: number): Uint8Array {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Uint8Array.from(out);
}

/** Minimal (no trailing zero groups), at most 3 bytes, at least 1; undefined otherwise. */
function decodeVarint(bytes: Uint8Array): { value: number; length: number } | undefined {
  let value = 0;
  for (let i = 0; i < Math.min(bytes.length, 3); i++) {
    const byte = bytes[i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) {
      if (i > 0 && byte === 0) return undefined;
      return value >= 1 ? { value, length: i + 1 } : undefined;
    }
  }
  return undefined;
}
