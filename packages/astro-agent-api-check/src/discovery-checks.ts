import { createHash } from 'node:crypto';
import { compileErrors, validate } from '@readme/openapi-parser';
import { DOCUMENT_PATHS, WELL_KNOWN_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import { undescribedOperations } from './answered-operations.ts';
import { collectProblems, withApi, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn, type CheckOutcome } from './check-result.ts';
import {
  authorizationServerUrl,
  parseJson,
  protectedResourceUrl,
  type Json,
} from './discover-site.ts';
import { describeAnswer, looksLikeHtml, mediaType, type HttpAnswer } from './site-http.ts';

/** a14y's agents-md probes, in its order, for a site's guide for agents. */
const AGENTS_MD_PATHS = [DOCUMENT_PATHS.agents, '/AGENTS.md', '/.well-known/agents.md'];
/** The OAuth endpoints RFC 8414 §2 metadata names, checked to be on this site and to answer POST in JSON. */
const OAUTH_ENDPOINTS = [
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
] as const;

/** A JSON document: 200, a JSON media type, an object; else the line that says why not. */
async function fetchJson(
  context: CheckContext,
  url: string,
): Promise<{ json?: Json; answer: HttpAnswer; problem?: string }> {
  const answer = await context.http.fetch(url);
  if (answer.status !== 200) return { answer, problem: describeAnswer(answer) };
  if (!/(^application\/(.+\+)?json$)/.test(mediaType(answer)))
    return { answer, problem: `${url} is ${mediaType(answer) || 'untyped'}, not JSON` };
  const json = parseJson(answer.text);
  return json ? { json, answer } : { answer, problem: `${url} is not a JSON object` };
}

/** Absent documents fail on a site that serves the package's API (it publishes them), and only warn elsewhere. */
function absent(context: CheckContext, message: string): CheckOutcome {
  return context.site.api ? fail(message) : warn(message);
}

function isOnSiteUrl(context: CheckContext, value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//.test(value) && context.http.isOnSite(value);
}

export const discoveryChecks: CheckRuns = {
  async 'agents-md'(context) {
    const { site, http } = context;
    for (const path of AGENTS_MD_PATHS) {
      const url = path.startsWith('/.well-known')
        ? `${http.target.origin}${path}`
        : `${site.siteUrl}${path}`;
      const answer = await http.fetch(url);
      if (answer.status !== 200) continue;
      const problems = [
        ...(['text/markdown', 'text/plain', 'text/x-markdown'].includes(mediaType(answer)) &&
        !looksLikeHtml(answer.text)
          ? []
          : [`${url} is ${mediaType(answer)}, not Markdown`]),
        ...(/^# \S/m.test(answer.text) ? [] : ['no H1']),
        ...(answer.text.split('\n').filter((line) => /^## \S/.test(line)).length >= 2
          ? []
          : ['fewer than two "## " sections']),
      ];
      return problems.length > 0
        ? fail(`${url} is not a guide an agent can read`, problems)
        : pass(
            `${url}: ${answer.text.split('\n').filter((line) => /^## /.test(line)).length} sections`,
          );
    }
    return absent(
      context,
      `no agents.md: ${site.siteUrl}${DOCUMENT_PATHS.agents} does not answer 200`,
    );
  },

  async 'agent-skills'(context) {
    const url = `${context.site.siteUrl}${WELL_KNOWN_PATHS.agentSkills}`;
    const { json, answer, problem } = await fetchJson(context, url);
    if (answer.status === 404) return absent(context, `no agent skills index: ${url} answers 404`);
    if (problem || !json) return fail('the agent skills index does not read', [problem ?? url]);
    const skills = Array.isArray(json.skills) ? (json.skills as Json[]) : [];
    if (skills.length === 0) return fail(`${url} lists no skill`);
    const problems = await collectProblems(skills, async (skill) => {
      if (typeof skill.name !== 'string' || typeof skill.url !== 'string')
        return `a skill without name or url: ${JSON.stringify(skill).slice(0, 120)}`;
      const file = await context.http.fetch(new URL(skill.url, url).href);
      if (file.status !== 200) return `${skill.name}: ${describeAnswer(file)}`;
      const digest = `sha256:${createHash('sha256').update(file.text).digest('hex')}`;
      if (typeof skill.digest === 'string' && skill.digest !== digest)
        return `${skill.name}: digest ${skill.digest}, but ${skill.url} hashes to ${digest}`;
      if (typeof skill.digest !== 'string') return `${skill.name}: no sha256 digest`;
      return undefined;
    });
    return problems.length > 0
      ? fail(`${problems.length} of ${skills.length} skills do not match the index`, problems)
      : pass(`${skills.length} skill(s), each answering with its digest`);
  },

  'oauth-authorization-server': withApi(async (context) => {
    const url = authorizationServerUrl(context.site.siteUrl);
    const { json, problem } = await fetchJson(context, url);
    if (!json) return fail('no RFC 8414 metadata', [problem ?? url]);
    const problems: string[] = [];
    if (json.issuer !== context.site.siteUrl)
      problems.push(
        `issuer is ${JSON.stringify(json.issuer)}, not the site ${context.site.siteUrl} (RFC 8414 §3.3)`,
      );
    if (
      !Array.isArray(json.grant_types_supported) ||
      !json.grant_types_supported.includes('client_credentials')
    )
      problems.push('grant_types_supported does not list client_credentials');
    for (const name of OAUTH_ENDPOINTS) {
      const endpoint = json[name];
      if (!isOnSiteUrl(context, endpoint)) {
        problems.push(`${name} ${JSON.stringify(endpoint)} is not an address on this site`);
        continue;
      }
      // An empty POST must reach the endpoint: a JSON 4xx of its own, never a 404, 405 or HTML.
      const answer = await context.http.fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: '',
        fresh: true,
      });
      if (
        answer.status === 404 ||
        answer.status === 405 ||
        answer.status >= 500 ||
        answer.status === 0 ||
        !/json/.test(mediaType(answer))
      )
        problems.push(`${name}: POST ${describeAnswer(answer)} ${mediaType(answer)}`);
    }
    return problems.length > 0
      ? fail(`${url} has ${problems.length} problem(s)`, problems)
      : pass(`${url}: issuer ${json.issuer}, ${OAUTH_ENDPOINTS.length} endpoints answering`);
  }),

  'oauth-protected-resource': withApi(async (context, api) => {
    const problems: string[] = [];
    for (const resource of [context.site.siteUrl, api.apiBase]) {
      const url = protectedResourceUrl(resource);
      const { json, problem } = await fetchJson(context, url);
      if (!json) {
        problems.push(problem ?? url);
        continue;
      }
      if (json.resource !== resource)
        problems.push(
          `${url}: resource is ${JSON.stringify(json.resource)}, not ${resource} (RFC 9728 §3.3)`,
        );
      if (
        !Array.isArray(json.authorization_servers) ||
        !json.authorization_servers.includes(context.site.siteUrl)
      )
        problems.push(`${url}: authorization_servers does not name ${context.site.siteUrl}`);
    }
    return problems.length > 0
      ? fail('the RFC 9728 metadata does not describe the site and its API', problems)
      : pass(
          'the site and its API each have RFC 9728 metadata naming the site as authorization server',
        );
  }),

  'api-catalog': withApi(async (context) => {
    const url = `${context.site.siteUrl}${WELL_KNOWN_PATHS.apiCatalog}`;
    const answer = await context.http.fetch(url);
    if (answer.status !== 200) return fail('no API catalog', [describeAnswer(answer)]);
    const problems: string[] = [];
    if (mediaType(answer) !== 'application/linkset+json')
      problems.push(`${url} is ${mediaType(answer)}, not application/linkset+json (RFC 9727 §4)`);
    const linkset = parseJson(answer.text)?.linkset;
    if (!Array.isArray(linkset) || linkset.length === 0)
      return fail(`${url} is not a Linkset (RFC 9264 §4.2)`, problems);
    const targets = new Set<string>();
    for (const context_ of linkset as Json[]) {
      if (typeof context_.anchor !== 'string')
        problems.push(
          `a link context without an anchor: ${JSON.stringify(context_).slice(0, 100)}`,
        );
      for (const relation of ['service-desc', 'service-doc', 'service-meta'])
        for (const target of (context_[relation] ?? []) as Json[])
          if (typeof target.href === 'string') targets.add(target.href);
    }
    if (!(linkset as Json[]).some((entry) => Array.isArray(entry['service-desc'])))
      problems.push("no service-desc link (the API's machine description)");
    problems.push(
      ...(await collectProblems(
        [...targets].filter((target) => context.http.isOnSite(target)),
        async (target) => {
          const linked = await context.http.fetch(target);
          return linked.status === 200 ? undefined : describeAnswer(linked);
        },
      )),
    );
    return problems.length > 0
      ? fail(`the API catalog has ${problems.length} problem(s)`, problems)
      : pass(`${linkset.length} link contexts, ${targets.size} described links answering`);
  }),

  'mcp-server-card': withApi(async (context) => {
    const url = `${context.site.siteUrl}${WELL_KNOWN_PATHS.mcpServerCard}`;
    const { json, problem } = await fetchJson(context, url);
    if (!json) return fail('no MCP server card', [problem ?? url]);
    const problems: string[] = [];
    if (typeof json.serverInfo?.name !== 'string') problems.push('no serverInfo.name');
    if (json.transport?.type !== 'streamable-http')
      problems.push(
        `transport.type is ${JSON.stringify(json.transport?.type)}, not "streamable-http"`,
      );
    if (!isOnSiteUrl(context, json.transport?.endpoint))
      problems.push(
        `transport.endpoint ${JSON.stringify(json.transport?.endpoint)} is not an address on this site`,
      );
    if (json.capabilities === null || typeof json.capabilities !== 'object')
      problems.push('no capabilities object');
    for (const tool of (Array.isArray(json.tools) ? json.tools : []) as Json[])
      if (typeof tool.name !== 'string' || typeof tool.inputSchema !== 'object')
        problems.push(`a tool without name or inputSchema: ${String(tool.name)}`);
    return problems.length > 0
      ? fail(`${url} has ${problems.length} problem(s)`, problems)
      : pass(`${json.serverInfo.name} at ${json.transport.endpoint}`);
  }),

  /** Run wherever /openapi.json answers, so that a document broken past reading is a failure, not a site "without an API". */
  async openapi(context) {
    const url = `${context.site.siteUrl}${DOCUMENT_PATHS.openapi}`;
    const answer = await context.http.fetch(url);
    if (answer.status === 404 && !context.site.api)
      return skip(`not applicable: ${context.site.noApiReason}`);
    if (answer.status !== 200) return fail('no openapi.json', [describeAnswer(answer)]);
    const problems: string[] = [];
    if (!/json/.test(mediaType(answer))) problems.push(`${url} is ${mediaType(answer)}, not JSON`);
    const document = parseJson(answer.text);
    if (!document) return fail(`${url} is not JSON`, [...problems, answer.text.slice(0, 120)]);
    const result = await validate(structuredClone(document) as never);
    if (!result.valid)
      problems.push(
        ...compileErrors(result)
          .split('\n')
          .filter((line) => line.trim())
          .slice(0, 10),
      );
    const server = document.servers?.[0]?.url;
    if (typeof server !== 'string' || server.replace(/\/+$/, '') !== context.site.siteUrl)
      problems.push(
        `servers[0].url is ${JSON.stringify(server)}, not the site ${context.site.siteUrl}`,
      );
    if (typeof document.openapi !== 'string' || !/^3\.1\./.test(document.openapi))
      problems.push(`openapi is ${JSON.stringify(document.openapi)}, not 3.1.x`);
    problems.push(...(await undescribedOperations(context, document)));
    return problems.length > 0
      ? fail("openapi.json is not a valid description of this site's API", problems)
      : pass(
          `OpenAPI ${document.openapi}, ${Object.keys(document.paths ?? {}).length} paths, valid`,
        );
  },
};
