import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { buildRobotsTxt } from '../../packages/astro-agent-api/src/documents/build-robots-txt.ts';
import { createDocumentContext } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import { buildDocuments } from '../../packages/astro-agent-api/src/documents/write-documents.ts';
import { MCP_PATH, WELL_KNOWN_PATHS } from '../../packages/astro-agent-api/src/contract/paths.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
  type AgentApiUserOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { agentApiOptions } from '../../src/data/agent-api.ts';
import { buildTestPage } from '../helpers/built-page.ts';

type Json = { [key: string]: any };

const site = 'https://www.reparohogar.example';
const page = (path: string, title: string) =>
  buildTestPage(site, path, { title, language: 'en', markdown: `# ${title}\n\nTexto.\n` });
const pages = [page('/', 'Inicio'), page('/servicios/fontaneria/', 'Fontanería')];

function documentsFor(userOptions: AgentApiUserOptions, siteUrl = site) {
  const parsed = parseAgentApiOptions(userOptions);
  const options = resolveAgentApiOptions(parsed, { url: siteUrl, pageLanguages: [] });
  return buildDocuments({ site: siteUrl, options, company: parsed.company, pages });
}

const demo = documentsFor(agentApiOptions);
const blog = documentsFor({}, 'https://blog.example');

describe('robots.txt', () => {
  const robotsFor = (robots: AgentApiUserOptions['robots']) => {
    const options = resolveAgentApiOptions(parseAgentApiOptions({ robots }), {
      url: site,
      pageLanguages: [],
      sitemap: '/sitemap-index.xml',
    });
    return buildRobotsTxt(createDocumentContext({ site, options, pages }));
  };

  it('states the default preferences as Content-Signal and as an AIPREF Content-Usage rule for every crawler', () => {
    const robots = robotsFor(undefined);
    assert.match(
      robots,
      /^User-agent: \*\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nContent-Usage: \/ search=y, ai-use=y, train-ai=n\nAllow: \/$/m,
    );
    assert.match(robots, /^Sitemap: https:\/\/www\.reparohogar\.example\/sitemap-index\.xml$/m);
  });

  it('names no sitemap when the site builds none', () => {
    const options = resolveAgentApiOptions(parseAgentApiOptions({}), {
      url: site,
      pageLanguages: [],
    });
    const documents = buildDocuments({ site, options, pages });
    assert.doesNotMatch(documents.get('/robots.txt')!, /Sitemap:/);
    assert.doesNotMatch(documents.get('/agents.md')!, /sitemap/i);
  });

  it('states only the preferences given, and writes a full group for each named crawler', () => {
    const robots = robotsFor({
      usage: { aiTrain: false },
      agents: { GPTBot: { crawl: false }, 'Claude-User': { usage: { aiInput: true } } },
    });
    const groups = robots.split('\n\n').filter((group) => group.startsWith('User-agent:'));
    assert.deepEqual(groups, [
      'User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: / train-ai=n\nAllow: /',
      // Kept out: no preferences, since they only apply to what may be crawled.
      'User-agent: GPTBot\nDisallow: /',
      // Its own group replaces the * group for it, so the general preferences are repeated with its own.
      'User-agent: Claude-User\nContent-Signal: ai-input=yes, ai-train=no\nContent-Usage: / ai-use=y, train-ai=n\nAllow: /',
    ]);
  });

  it('refuses a crawler name that is not an RFC 9309 product token, naming the option', () => {
    assert.throws(
      () => parseAgentApiOptions({ robots: { agents: { 'Bad Bot/1.0': { crawl: false } } } }),
      /robots\.agents\.Bad Bot\/1\.0.*product token/s,
    );
    assert.throws(
      () => parseAgentApiOptions({ robots: { usage: { aiTraining: false } } }),
      /aiTraining.*not an option of `robots\.usage`/,
    );
  });

  it('the demo keeps the training crawlers out and lets the others read', () => {
    const robots = demo.get('/robots.txt')!;
    assert.match(robots, /^User-agent: GPTBot\nDisallow: \/$/m);
    assert.match(
      robots,
      /^User-agent: \*\nContent-Signal: search=yes, ai-input=yes, ai-train=no, use=reference\nContent-Usage: \/ search=y, ai-use=y, train-ai=n\n/m,
    );
    assert.match(robots, /^# use: how much may be kept and reproduced/m);
  });

  it("states Content Signals' use in Content-Signal only (AIPREF has no such term), for every crawler or one, and nothing of it when not chosen", () => {
    const robots = robotsFor({
      usage: { aiTrain: false, use: 'immediate' },
      agents: { 'Claude-SearchBot': { usage: { use: 'reference' } } },
    });
    const groups = robots.split('\n\n').filter((group) => group.startsWith('User-agent:'));
    assert.deepEqual(groups, [
      'User-agent: *\nContent-Signal: ai-train=no, use=immediate\nContent-Usage: / train-ai=n\nAllow: /',
      'User-agent: Claude-SearchBot\nContent-Signal: ai-train=no, use=reference\nContent-Usage: / train-ai=n\nAllow: /',
    ]);
    assert.match(
      robotsFor({ usage: { use: 'full' } }),
      /^User-agent: \*\nContent-Signal: use=full\nAllow: \/$/m,
    );
    assert.doesNotMatch(robotsFor(undefined), /[ ,]use=|# use:/);
    assert.throws(
      () => parseAgentApiOptions({ robots: { usage: { use: 'some' } } }),
      /robots\.usage\.use/,
    );
  });
});

describe('/.well-known/api-catalog (RFC 9727)', () => {
  const catalog = JSON.parse(demo.get(WELL_KNOWN_PATHS.apiCatalog)!) as { linkset: Json[] };
  const entry = (anchor: string) => catalog.linkset.find((context) => context.anchor === anchor)!;

  it('lists the API and the MCP server as items of the catalog', () => {
    assert.deepEqual(
      entry(`${site}${WELL_KNOWN_PATHS.apiCatalog}`).item.map((link: Json) => link.href),
      [`${site}/api/v1`, `${site}${MCP_PATH}`],
    );
  });

  it('gives each API its description, documentation and metadata, all published by the same build', () => {
    const api = entry(`${site}/api/v1`);
    assert.deepEqual(
      api['service-desc'].map((link: Json) => link.href),
      [`${site}/openapi.json`],
    );
    assert.deepEqual(
      entry(`${site}${MCP_PATH}`)['service-desc'].map((link: Json) => link.href),
      [`${site}${WELL_KNOWN_PATHS.mcpServerCard}`],
    );
    const hrefs = catalog.linkset.flatMap((context) =>
      Object.entries(context).flatMap(([relation, links]) =>
        relation === 'anchor' || relation === 'item'
          ? []
          : (links as Json[]).map((link) => link.href as string),
      ),
    );
    assert.ok(hrefs.includes(`${site}/llms.txt`) && hrefs.includes(`${site}/agents.md`));
    for (const href of hrefs) {
      const path = new URL(href).pathname;
      // Every link points to a document this build writes, or to a page of the site (the developer page).
      assert.ok(demo.has(path) || path === '/desarrolladores/', `${href} is published`);
    }
    for (const context of catalog.linkset) {
      for (const [relation, links] of Object.entries(context))
        if (relation !== 'anchor')
          assert.ok(Array.isArray(links), `${relation} is an array (RFC 9264 §4.2)`);
    }
  });
});

describe('/.well-known/llms.txt', () => {
  it('is the same document as /llms.txt', () => {
    assert.equal(demo.get(WELL_KNOWN_PATHS.llmsTxt), demo.get('/llms.txt'));
    assert.equal(blog.get(WELL_KNOWN_PATHS.llmsTxt), blog.get('/llms.txt'));
  });
});

describe('agent skill (Agent Skills Discovery 0.2.0)', () => {
  for (const [name, documents] of [
    ['demo', demo],
    ['generic blog', blog],
  ] as const) {
    it(`${name}: the index lists one SKILL.md by its SHA-256, and its name and description match the skill's front matter`, () => {
      const index = JSON.parse(documents.get(WELL_KNOWN_PATHS.agentSkills)!) as Json;
      assert.equal(index.$schema, 'https://schemas.agentskills.io/discovery/0.2.0/schema.json');
      assert.equal(index.skills.length, 1);
      const [skill] = index.skills;
      assert.equal(skill.type, 'skill-md');
      const path = new URL(skill.url).pathname;
      assert.equal(path, `/.well-known/agent-skills/${skill.name}/SKILL.md`);
      const text = documents.get(path)!;
      assert.equal(
        skill.digest,
        `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`,
      );
      const frontMatter = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!) as Json;
      assert.deepEqual(frontMatter, { name: skill.name, description: skill.description });
      assert.match(skill.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(skill.name.length <= 64 && skill.description.length <= 1024);
    });
  }

  it("teaches the site's own operations over REST and MCP, and only what the site offers", () => {
    const demoSkill = demo.get('/.well-known/agent-skills/reparo-hogar/SKILL.md')!;
    assert.match(
      demoSkill,
      /GET https:\/\/www\.reparohogar\.example\/api\/v1\/search_pages\?query=fuga\+de\+agua&city=madrid/,
    );
    assert.match(demoSkill, /`POST https:\/\/www\.reparohogar\.example\/mcp`/);
    assert.match(demoSkill, /`get_company_info`/);
    assert.match(demoSkill, /section=<id>/);
    const blogSkill = blog.get('/.well-known/agent-skills/blog-example/SKILL.md')!;
    assert.doesNotMatch(blogSkill, /company|get_company_info|reparo/i);
    assert.match(blogSkill, /`search_pages`, `read_page`, `get_quota`/);
  });
});
