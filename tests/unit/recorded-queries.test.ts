/**
 * The words agents search are recorded for the traffic report and printed in a terminal by
 * `agent-api report`: a query is recorded without the control characters that would move the
 * reader's cursor, clear the screen, break a table's row or reorder the line, and nothing else of it changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  buildOutcomeCounts,
  QUERY_MAX_LENGTH,
} from '../../packages/astro-agent-api/src/analytics/count-outcome.ts';
import { buildAgentReport } from '../../packages/astro-agent-api/src/analytics/report/build-agent-report.ts';
import { renderReportMarkdown } from '../../packages/astro-agent-api/src/analytics/report/render-report-markdown.ts';

/** C0 and C1 controls, DEL, the line and paragraph separators, and the bidi controls of UAX #9. */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function recordQuery(query: string): string {
  const outcome = {
    surface: 'api' as const,
    path: '/api/v1/search_pages',
    method: 'GET',
    userAgent: null,
    status: 200,
    calls: [{ operation: 'search_pages', ok: true, query, results: 1 }],
  };
  const [search] = buildOutcomeCounts(outcome, 'GPTBot').searches;
  return search!.query;
}

/** Characters a terminal could act on, and the escape sequences built of them. */
const controls = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(
    '\u2028',
    '\u2029',
    '\u061c',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
  ),
  fc.constantFrom(
    '\x1b[2J',
    '\x1b[H',
    '\x1b[31;1m',
    '\x1b]0;title\x07',
    '\x1b]8;;https://evil.example\x1b\\',
    '\x9b2K',
    '\x1bc',
    '\x1b[?25l',
  ),
);

/** Text as people write it: ASCII, accented and CJK letters, combining marks, joiners and emoji. */
const printable = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(
    'é',
    'ñ',
    'ß',
    'ø',
    'İ',
    'Ω',
    'я',
    'ع',
    'ש',
    'क',
    'ि',
    'ं',
    '\u0301',
    '\u0308',
    '\u0323',
    '\u200c',
    '\u200d',
    '\u00ad',
  ),
  fc.integer({ min: 0x4e00, max: 0x9fff }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x3040, max: 0x30ff }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0xac00, max: 0xd7a3 }).map((code) => String.fromCharCode(code)),
  fc.constantFrom('👍🏽', '👩‍💻', '🇪🇸'),
);

describe('a recorded query', () => {
  test('holds no control character, whatever was sent (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(printable, controls, fc.string({ unit: 'binary' })), { maxLength: 40 }),
        (parts) => {
          const recorded = recordQuery(parts.join(''));
          assert.doesNotMatch(recorded, UNPRINTABLE);
          assert.ok(recorded.length <= QUERY_MAX_LENGTH);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  test('keeps printable text, CJK and combining marks as they were sent (property)', () => {
    fc.assert(
      fc.property(fc.array(printable, { maxLength: 40 }), (parts) => {
        const query = parts.join('').slice(0, QUERY_MAX_LENGTH);
        assert.equal(recordQuery(query), query);
      }),
      { numRuns: 2_000 },
    );
  });

  test('keeps the words around a control character: sequences go whole, a line break reads as a space', () => {
    assert.equal(recordQuery('\x1b[2J\x1b[Hfuga de agua'), 'fuga de agua');
    assert.equal(recordQuery('fuga\nde\r\nagua'), 'fuga de agua');
    assert.equal(
      recordQuery('\x1b]8;;https://evil.example\x1b\\fontanero\x1b]8;;\x1b\\'),
      'fontanero',
    );
    assert.equal(recordQuery('\u202egnp.exe'), 'gnp.exe');
    assert.equal(recordQuery('fontanería \x1b[31mMadrid\x1b[0m'), 'fontanería Madrid');
  });

  test('the Markdown report prints no control character, even of counts recorded before queries were stripped', () => {
    const day = '2026-11-20';
    const searches = ['\x1b[2J\x1b[1;1Hpwned', 'a\u202eb', 'fuga\x07\x9b2K'].map((query) => ({
      day,
      surface: 'api',
      family: 'GPTBot',
      query,
      filters: '',
      results: 0,
      more: false,
      count: 1,
    }));
    const requests = [
      { day, surface: 'api', target: 'search_pages', page: '', family: 'GPTBot', count: 3 },
    ];
    const markdown = renderReportMarkdown(
      buildAgentReport({ requests, searches }, { since: day, until: day }),
    );
    assert.match(markdown, /\| pwned +\|/);
    assert.doesNotMatch(markdown.replaceAll('\n', ''), UNPRINTABLE);
  });
});
