/**
 * The CPU of read_page's MCP text for one page of the demo: its front matter written with the yaml
 * library (a Document, lists of objects in flow style; its block `stringify`), against the whole
 * projection the server makes of the answer into its MCP parts (server/mcp/tools.ts
 * buildToolResultParts: the front matter as JSON values, the text, the structured JSON) and against
 * encoding the answer as it was sent before (its JSON escaped into the text). Process CPU per call,
 * 2,000 calls after 200 of warm-up; the median of three runs; the size in characters (bytes for the
 * encoding).
 * Usage: node bench/mcp-front-matter.ts [--page PATH] (the demo's test build, built if needed)
 */
import { parseArgs } from 'node:util';
import { Document, isMap, stringify, visit } from 'yaml';
import { buildToolResultParts } from '../packages/astro-agent-api/src/server/mcp/tools.ts';
import { startTestServer } from '../tests/helpers/server.ts';

const { values: args } = parseArgs({
  options: { page: { type: 'string', default: '/servicios/fontaneria/madrid/' } },
});
const server = await startTestServer();
const body = await (
  await fetch(`${server.url}/api/v1/read_page?url=${encodeURIComponent(args.page)}`)
).text();
await server.close();

const { markdown, ...fields } = JSON.parse(body) as Record<string, unknown>;
const shown = Object.fromEntries(
  Object.entries(fields).filter(
    ([name, value]) =>
      value !== null &&
      value !== false &&
      !(typeof value === 'object' && Object.keys(value).length === 0) &&
      name !== 'canonical_url',
  ),
);

const WAYS: Record<string, () => number> = {
  'yaml Document, flow lists': () => {
    const document = new Document(shown);
    visit(document, {
      Seq(_key, sequence) {
        for (const item of sequence.items) if (isMap(item)) item.flow = true;
      },
    });
    return document.toString({ lineWidth: 0 }).length;
  },
  'yaml stringify, block': () => stringify(shown, { lineWidth: 0 }).length,
  'the served projection': () => {
    const { text, structured } = buildToolResultParts({ textField: 'markdown' }, body);
    return structured.length > 0 ? text.length - String(markdown).length : 0;
  },
  'the old answer, encoded': () =>
    new TextEncoder().encode(
      `{"result":{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body}`,
    ).byteLength,
};

for (const [name, way] of Object.entries(WAYS)) {
  const runs: number[] = [];
  let length = 0;
  for (let run = 0; run < 3; run++) {
    for (let i = 0; i < 200; i++) way();
    const start = process.cpuUsage();
    for (let i = 0; i < 2000; i++) length = way();
    const spent = process.cpuUsage(start);
    runs.push((spent.user + spent.system) / 2000);
  }
  runs.sort((a, b) => a - b);
  process.stdout.write(
    `${name.padEnd(28)} ${runs[1]!.toFixed(1).padStart(7)} µs   ${length.toLocaleString('en')} characters\n`,
  );
}
process.exit(0);
