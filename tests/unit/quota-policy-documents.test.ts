import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAgentsMd } from '../../packages/astro-agent-api/src/documents/build-agents-md.ts';
import { buildOpenApi } from '../../packages/astro-agent-api/src/documents/build-openapi.ts';
import {
  createDocumentContext,
  type DocumentContext,
} from '../../packages/astro-agent-api/src/documents/document-context.ts';
import type {
  Operation,
  OperationPolicy,
} from '../../packages/astro-agent-api/src/operations/operation.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { buildTestPage } from '../helpers/built-page.ts';

type Json = { [key: string]: any };

const site = 'https://docs.example';
const options = resolveAgentApiOptions(parseAgentApiOptions({}), { url: site, pageLanguages: [] });
const pages = [
  buildTestPage(site, '/', { title: 'Home', language: 'en', markdown: '# Home\n\nText.\n' }),
];
const context = createDocumentContext({ site, options, pages });

/** The site's operations with one more, `export_pages`, whose policy is the test's. */
function withOperation(policy: OperationPolicy): DocumentContext {
  const template = context.operations[0]!;
  const extra: Operation = {
    ...template,
    name: 'export_pages',
    path: '/export_pages',
    title: 'Export pages',
    policy,
  };
  return { ...context, operations: [...context.operations, extra] };
}

/** The `Auth:` line of an operation's section in agents.md. */
function authLine(agentsMd: string, name: string): string {
  const section = agentsMd.slice(agentsMd.indexOf(`### \`${name}\``));
  return section.split('\n').find((line) => line.startsWith('Auth: '))!;
}

describe('whether an operation counts against the quota, in the documents', () => {
  it('is read from its own flag, not from whether it needs a token', () => {
    const counted = withOperation({
      scope: 'quota:read',
      token: 'required',
      quota: 'count',
      cache: 'caller',
    });
    const line = authLine(buildAgentsMd(counted), 'export_pages');
    assert.match(line, /Requires a bearer token/);
    assert.match(line, /uses one request of the quota/);
    assert.doesNotMatch(line, /Does not consume quota/);
    const responses = (buildOpenApi(counted) as Json).paths['/api/v1/export_pages'].get.responses;
    assert.ok('429' in responses, 'an operation that counts can answer 429');
  });

  it('says an operation that only peeks at the quota does not use it, token or not', () => {
    const peeked = withOperation({
      scope: 'content:read',
      token: 'optional',
      quota: 'peek',
      cache: 'build',
    });
    const line = authLine(buildAgentsMd(peeked), 'export_pages');
    assert.match(line, /No token needed/);
    assert.match(line, /Does not consume quota/);
    const openapi = buildOpenApi(peeked) as Json;
    assert.ok(
      !('429' in openapi.paths['/api/v1/export_pages'].get.responses),
      'a call that uses no quota is never refused for it',
    );
    assert.ok(!('429' in openapi.paths['/api/v1/quota'].get.responses), 'get_quota only peeks');
    assert.ok('429' in openapi.paths['/api/v1/search_pages'].get.responses);
  });
});
