import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { buildToolOutputJsonSchema } from '../../packages/astro-agent-api/src/operations/json-schema.ts';
import { createReadPage } from '../../packages/astro-agent-api/src/operations/read-page.ts';
import { buildToolResultParts } from '../../packages/astro-agent-api/src/server/mcp/tools.ts';

const page = {
  title: 'Fugas: qué hacer',
  url: 'https://example.com/fugas/',
  canonical_url: 'https://example.com/fugas/',
  markdown: '# Fugas: qué hacer\n\nCierre la llave de paso.\n\n## Después\n\nLlame.',
  truncated: false,
  description: null,
  last_modified: '2026-05-01',
  facets: {},
  sections: [
    { id: 'fugas-qué-hacer', title: 'Fugas: qué hacer', level: 1, offset: 0, length: 60 },
    { id: 'después', title: 'Después', level: 2, offset: 42, length: 18 },
  ],
  total_chars: 60,
  offset: 0,
  next_offset: null,
};

test("read_page's result: the Markdown once, as the text after a short front matter; the other fields as the structured content", () => {
  const { text, structured } = buildToolResultParts(
    { textField: 'markdown' },
    JSON.stringify(page),
  );
  const { markdown, ...fields } = page;
  assert.deepEqual(JSON.parse(structured), fields);
  assert.ok(text.endsWith(`\n---\n\n${markdown}`), text);
  assert.equal(text.split(markdown).length, 2, 'the Markdown appears once');
  const front = parseYaml(text.slice(4, text.indexOf('\n---\n\n') + 1));
  // What says nothing or repeats is left out; the rest is the structured content's, values and all.
  assert.deepEqual(front, {
    title: page.title,
    url: page.url,
    last_modified: '2026-05-01',
    sections: page.sections,
    total_chars: 60,
    offset: 0,
  });
  assert.ok(
    text.includes(
      '\n  - {"id":"fugas-qué-hacer","title":"Fugas: qué hacer","level":1,"offset":0,"length":60}\n',
    ),
    'one section a line, in JSON, which YAML reads',
  );
  assert.ok(
    text.startsWith('---\ntitle: "Fugas: qué hacer"\nurl: "https://example.com/fugas/"\n'),
    text,
  );
});

test('a tool without a text field: its answer as the text and as the structured content, verbatim', () => {
  const body = '{"total":1,"results":[{"title":"a","url":"u"}],"next_cursor":null}';
  assert.deepEqual(buildToolResultParts({}, body), { text: body, structured: body });
});

test("read_page's MCP outputSchema is its output schema without `markdown`", () => {
  const read = createReadPage({ truncateAt: 20_000, languages: ['es'] });
  const schema = buildToolOutputJsonSchema(read);
  assert.equal(schema.properties?.markdown, undefined);
  assert.ok(!schema.required?.includes('markdown'));
  assert.ok(schema.required?.includes('sections'));
});
