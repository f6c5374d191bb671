/**
 * The documents of a site without an adapter: only those that stay true without a server, and not one
 * word or link about the API, MCP, OAuth or quotas that nothing answers. The demo's own options (company
 * facts, facets, notes, Spanish) are the hardest case: every one of them feeds the served documents.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markdownTwinPath } from '../../packages/astro-agent-api/src/content/manifest.ts';
import { buildDocuments } from '../../packages/astro-agent-api/src/documents/write-documents.ts';
import { documentFilePath } from '../../packages/astro-agent-api/src/contract/paths.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
  type AgentApiUserOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { agentApiOptions } from '../../src/data/agent-api.ts';
import { buildTestPage } from '../helpers/built-page.ts';

const site = 'https://www.example.com';
const page = (path: string, title: string) =>
  buildTestPage(site, path, {
    title,
    language: 'en',
    markdown: `# ${title}\n\nText of ${title}.\n`,
  });
const pages = [
  page('/', 'Home'),
  page('/guides/', 'Guides'),
  page('/guides/soil/', 'Soil'),
  page('/guides/pots/clay/', 'Clay pots'),
];
/** What exists only where a server answers on demand (robots.txt's first line names the integration, `agent-api`). */
const SERVED_ONLY = [
  /\bAPI\b|\bMCP\b/,
  /OAuth|quota|cuota|openapi|auth\.md|search_pages|read_page|get_company_info|get_quota|Accept: text\/markdown|\/\.well-known\/(?:oauth|mcp|api-catalog|ai-catalog)/i,
];

function documentsFor(userOptions: AgentApiUserOptions, onDemand?: boolean) {
  const parsed = parseAgentApiOptions(userOptions);
  const options = resolveAgentApiOptions(parsed, {
    url: site,
    pageLanguages: ['en'],
    sitemap: '/sitemap-index.xml',
  });
  return buildDocuments({
    site,
    options,
    company: parsed.company,
    pages,
    ...(onDemand === undefined ? {} : { onDemand }),
  });
}

describe('the documents of a static site', () => {
  for (const [label, userOptions] of [
    ['no options', {}],
    ["the demo's options (company, facets, notes, Spanish)", agentApiOptions],
  ] as const) {
    describe(label, () => {
      const documents = documentsFor(userOptions, false);
      const skill = [...documents.keys()].find((path) => path.endsWith('/SKILL.md'))!;

      it('are agents.md, llms.txt (and its well-known copy), llms-full.txt, the agent skill and robots.txt, and nothing that needs a server', () => {
        assert.match(skill, /^\/\.well-known\/agent-skills\/[a-z0-9-]+\/SKILL\.md$/);
        assert.deepEqual(
          [...documents.keys()].sort(),
          [
            '/.well-known/agent-skills/index.json',
            '/.well-known/llms.txt',
            '/agents.md',
            '/llms-full.txt',
            '/llms.txt',
            '/robots.txt',
            skill,
          ].sort(),
        );
      });

      it('say nothing of the API, MCP, OAuth, quotas or content negotiation', () => {
        for (const [path, text] of documents) {
          for (const pattern of SERVED_ONLY) {
            const found = pattern.exec(text);
            assert.equal(
              found,
              null,
              `${path} says "${found?.[0]}" in …${found ? text.slice(Math.max(0, found.index - 60), found.index + 60) : ''}…`,
            );
          }
        }
      });

      it("link only the site's documents, its twins and its pages, and the sitemap", () => {
        const published = new Set([...documents.keys()].map(documentFilePath));
        const files = new Set([
          ...published,
          ...pages.flatMap((one) => [one.path, markdownTwinPath(one.path)]),
          '/sitemap-index.xml',
        ]);
        const linked = [...documents.values()].flatMap((text) =>
          [...text.matchAll(/https:\/\/www\.example\.com(\/[^\s)`"'<>]*[^\s)`"'<>.,;:])?/g)].map(
            (match) => match[1] ?? '/',
          ),
        );
        assert.ok(linked.length > pages.length);
        assert.deepEqual(
          [...new Set(linked)].filter((path) => !files.has(path)),
          [],
        );
      });

      it('tell agents to read the twins through llms.txt', () => {
        assert.match(
          documents.get('/agents.md')!,
          /1\. Find the pages: https:\/\/www\.example\.com\/llms\.txt lists every page/,
        );
        assert.match(
          documents.get('/agents.md')!,
          /`https:\/\/www\.example\.com\/guides\/pots\/clay\/` → `https:\/\/www\.example\.com\/guides\/pots\/clay\.md`/,
        );
        assert.match(
          documents.get('/agents.md')!,
          /names its twin in its `<head>` with `<link rel="alternate" type="text\/markdown" href="…">`/,
        );
        assert.match(documents.get('/llms.txt')!, /\(https:\/\/www\.example\.com\/agents\.md\)/);
        assert.match(
          documents.get(skill)!,
          /^description: .*as Markdown, from the index at https:\/\/www\.example\.com\/llms\.txt/m,
        );
      });
    });
  }

  it('a site with an adapter keeps every document, negotiation included', () => {
    const served = documentsFor({});
    assert.equal(served.size, 17);
    assert.match(
      served.get('/agents.md')!,
      /Requesting an HTML page with `Accept: text\/markdown` returns the same Markdown/,
    );
    assert.match(
      served.get('/llms.txt')!,
      /use the read-only API \(https:\/\/www\.example\.com\/api\/v1, described in https:\/\/www\.example\.com\/openapi\.json\) or the same operations as MCP tools/,
    );
  });
});
