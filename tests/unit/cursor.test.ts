import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  MAX_CURSOR_LENGTH,
  MAX_CURSOR_OFFSET,
} from '../../packages/astro-agent-api/src/content/cursor.ts';

const scope = { buildId: 'build-1', query: 'fontanero madrid', filters: {} };

test('a cursor round-trips its offset and is at most 12 characters', () => {
  for (const offset of [1, 2, 8, 127, 128, 200, 16_383, 16_384, MAX_CURSOR_OFFSET]) {
    const cursor = encodeCursor(offset, scope);
    assert.ok(cursor.length <= MAX_CURSOR_LENGTH, `${cursor} is longer than 12`);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(decodeCursor(cursor, scope), offset);
  }
});

test('the same offset, query, city and build give the same cursor', () => {
  assert.equal(encodeCursor(8, scope), encodeCursor(8, { ...scope }));
  assert.notEqual(encodeCursor(8, scope), encodeCursor(16, scope));
});

test('a cursor from another query, city or build is rejected', () => {
  const cursor = encodeCursor(8, scope);
  assert.throws(
    () => decodeCursor(cursor, { ...scope, query: 'fontanero sevilla' }),
    InvalidCursorError,
  );
  assert.throws(
    () => decodeCursor(cursor, { ...scope, filters: { city: 'madrid' } }),
    InvalidCursorError,
  );
  assert.throws(() => decodeCursor(cursor, { ...scope, buildId: 'build-2' }), InvalidCursorError);
});

test('a tampered cursor is rejected', () => {
  const cursor = encodeCursor(8, scope);
  for (let i = 0; i < cursor.length; i++) {
    const swapped = cursor[i] === 'A' ? 'B' : 'A';
    const tampered = cursor.slice(0, i) + swapped + cursor.slice(i + 1);
    assert.throws(() => decodeCursor(tampered, scope), InvalidCursorError, `accepted ${tampered}`);
  }
  // Moving to another offset while keeping the tag fails too.
  const other = Buffer.from(cursor, 'base64url');
  other[0] = 9;
  assert.throws(() => decodeCursor(other.toString('base64url'), scope), InvalidCursorError);
});

test('garbage is rejected with InvalidCursorError, never another error', () => {
  const garbage = [
    '',
    'x',
    '!!!!',
    'abc def',
    'AAAAAAAAAAAAA',
    'AAAAAAAAAAAA',
    '____________',
    'ñandú',
    '8',
    '%2F',
    'AAAA====',
    '0',
  ];
  for (const cursor of garbage) {
    assert.throws(
      () => decodeCursor(cursor, scope),
      InvalidCursorError,
      `accepted ${JSON.stringify(cursor)}`,
    );
  }
});

test('offsets outside the encodable range are a programming error', () => {
  assert.throws(() => encodeCursor(0, scope), RangeError);
  assert.throws(() => encodeCursor(MAX_CURSOR_OFFSET + 1, scope), RangeError);
  assert.throws(() => encodeCursor(1.5, scope), RangeError);
});
