import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { AstroError } from 'astro/errors';
import { environmentSchema } from '../../packages/astro-agent-api/src/environment.ts';
import type { ConvertedPage } from '../../packages/astro-agent-api/src/build/converted-page.ts';
import { buildManifest } from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import {
  agentApiOptionsSchema,
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';

const README = readFileSync(
  new URL('../../packages/astro-agent-api/README.md', import.meta.url),
  'utf8',
);

/** The rows of the README table whose header starts with `first`: name → default cell, backticks kept. */
function readmeTable(first: string): Map<string, string> {
  const start = README.indexOf(`| ${first} | Default |`);
  assert.ok(start >= 0, `the README has a table headed "${first} | Default"`);
  const rows = new Map<string, string>();
  for (const line of README.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [name, defaultCell] = line.split(' | ');
    rows.set(name!.replace(/^\| `|`$/g, ''), defaultCell!);
  }
  return rows;
}

/** A default as a user writes it in astro.config.mjs: `'/api/v1'`, `[]`, `{ notes: [] }`. */
function asWritten(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(asWritten).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, inner]) => `${key}: ${asWritten(inner)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return String(value);
}

describe('the README documents the schemas, and nothing else', () => {
  test('every option has a row with its default, and every row is an option', () => {
    const rows = readmeTable('Option');
    assert.deepEqual([...rows.keys()].sort(), Object.keys(agentApiOptionsSchema.shape).sort());
    const defaults = parseAgentApiOptions({});
    for (const [name, cell] of rows) {
      const value = defaults[name as keyof typeof defaults];
      // Options without a default are decided from the site (language, name) or are off when absent.
      if (value === undefined)
        assert.doesNotMatch(
          cell,
          /^`[^`]*`$/,
          `${name} has no default in the schema, so the README shows no value`,
        );
      else assert.equal(cell, `\`${asWritten(value)}\``, `the README's default of ${name}`);
    }
  });

  test('every environment variable has a row with its default, and every row is a variable', () => {
    const rows = readmeTable('Variable');
    assert.deepEqual([...rows.keys()].sort(), Object.keys(environmentSchema.shape).sort());
    const defaults = environmentSchema.parse({});
    for (const [name, cell] of rows) {
      const value = defaults[name as keyof typeof defaults];
      if (value === undefined)
        assert.doesNotMatch(cell, /^`[^`]*`$/, `${name} has no default in the schema`);
      else
        assert.ok(
          cell.startsWith(`\`${value}\``),
          `the README's default of ${name} is ${value}: ${cell}`,
        );
    }
  });
});

describe('bad options', () => {
  test('stop the configuration with an AstroError naming the option, with what to do as its hint', () => {
    assert.throws(
      () => parseAgentApiOptions({ truncateAt: -5, contentSelecter: 'main' }),
      (error: unknown) => {
        assert.ok(error instanceof AstroError);
        assert.match(error.message, /`truncateAt`: Too small/);
        assert.match(error.message, /`contentSelecter`: not an option of the options/);
        assert.match(
          error.hint ?? '',
          /The options are language, .*; the package README lists each one with its default/,
        );
        return true;
      },
    );
  });

  test('an object option left out gets the defaults of its fields', () => {
    const { policies, search, robots, documents } = parseAgentApiOptions({
      policies: { identified: { quota: 900 } },
    });
    assert.deepEqual(policies, {
      anonymous: { name: 'anonymous', quota: 60 },
      identified: { name: 'identified', quota: 900 },
    });
    assert.deepEqual(search, { synonyms: {}, stopWords: [], genericWords: [] });
    assert.deepEqual(robots, {
      usage: { search: true, aiInput: true, aiTrain: false },
      agents: {},
    });
    assert.deepEqual(documents, { notes: [], promptName: 'answer_question', promptRules: [] });
  });
});

describe('pages that contradict the options', () => {
  test('a facet value the options do not declare stops the build with an AstroError naming the page and the fix', () => {
    const site = 'https://blog.example';
    const options = resolveAgentApiOptions(
      parseAgentApiOptions({ facets: { topic: { values: { birds: 'Birds' } } } }),
      { url: site, pageLanguages: [] },
    );
    // Only the facets are read before the check refuses the page.
    const page = {
      path: '/cats/',
      facets: { topic: 'cats' },
      lang: 'en',
    } as unknown as ConvertedPage;
    assert.throws(
      () => buildManifest({ site, options, pages: [page] }),
      (error: unknown) => {
        assert.ok(error instanceof AstroError);
        assert.match(
          error.message,
          /The page \/cats\/ is marked <meta data-agent-facet="topic" content="cats">/,
        );
        assert.match(
          error.hint ?? '',
          /Use one of birds, or add "cats" to facets\.topic\.values in astro\.config\.mjs\./,
        );
        return true;
      },
    );
  });
});
