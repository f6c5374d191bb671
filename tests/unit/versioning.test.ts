/**
 * The `deprecation` option (docs/contract.md §7): a version being withdrawn is stated in openapi.json
 * and agents.md, and the option refuses a sunset that breaks the 90-day promise. The headers it puts
 * on every answer are tested over the runtime in tests/integration/rebuild-settings.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate, compileErrors } from '@readme/openapi-parser';
import { buildAgentsMd } from '../../packages/astro-agent-api/src/documents/build-agents-md.ts';
import { buildOpenApi } from '../../packages/astro-agent-api/src/documents/build-openapi.ts';
import { createDocumentContext } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import { buildDeprecationHeaders } from '../../packages/astro-agent-api/src/contract/versioning.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';

type Json = { [key: string]: any };
const site = 'https://docs.example';
const pages = [
  {
    url: `${site}/`,
    path: '/',
    title: 'Home',
    language: 'en',
    facets: {},
    sections: [],
    frontMatter: '',
    markdown: '# Home\n\nWelcome to the documentation of the widgets.',
  },
];
const contextWith = (userOptions: Parameters<typeof parseAgentApiOptions>[0]) =>
  createDocumentContext({
    site,
    options: resolveAgentApiOptions(parseAgentApiOptions(userOptions), {
      url: site,
      pageLanguages: ['en'],
    }),
    pages,
  });

describe('a version being withdrawn', () => {
  const deprecation = { announced: '2027-01-15', sunset: '2027-04-30' };
  const withdrawn = contextWith({
    deprecation,
    documents: { versioningPolicy: '/developers/#versioning' },
  });
  const current = contextWith({});

  it('RFC 9745 and RFC 8594 headers: a structured date, an HTTP-date and the policy as rel="deprecation"', () => {
    assert.deepEqual(buildDeprecationHeaders(deprecation, `${site}/developers/#versioning`), {
      Deprecation: '@1799971200',
      Sunset: 'Fri, 30 Apr 2027 00:00:00 GMT',
      Link: `<${site}/developers/#versioning>; rel="deprecation"`,
    });
  });

  it('openapi.json marks every operation deprecated and declares the headers on every answer', async () => {
    const openapi = buildOpenApi(withdrawn) as Json;
    const result = await validate(structuredClone(openapi) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.deepEqual(openapi.info['x-deprecation'], {
      ...deprecation,
      policy: `${site}/developers/#versioning`,
    });
    assert.match(
      openapi.info.description,
      /v1 is being withdrawn:\*\* deprecated since 2027-01-15, it stops answering on 2027-04-30/,
    );
    // The operations come from the options, not from the document: a path it left out, or one whose
    // marker moved, fails here rather than being skipped.
    const operationPaths = withdrawn.operations.map((operation) => `/api/v1${operation.path}`);
    assert.deepEqual(operationPaths, [
      '/api/v1/search_pages',
      '/api/v1/read_page',
      '/api/v1/quota',
    ]);
    for (const path of operationPaths) {
      assert.equal(openapi.paths[path]?.get?.deprecated, true, `${path} is not marked deprecated`);
      assert.ok(
        openapi.paths[path].get.responses['200'].headers.Sunset,
        `${path} declares no Sunset header`,
      );
    }
    assert.equal(openapi.components.headers.Sunset.example, 'Fri, 30 Apr 2027 00:00:00 GMT');
    for (const response of Object.values(openapi.components.responses) as Json[])
      assert.ok(response.headers.Deprecation);
  });

  it('agents.md says so in its versioning section', () => {
    const agents = buildAgentsMd(withdrawn);
    const versioning = agents.slice(agents.indexOf('## Versioning'));
    assert.match(
      versioning,
      /v1 is being withdrawn:\*\* deprecated since 2027-01-15, it stops answering on 2027-04-30/,
    );
    assert.ok(versioning.includes(`${site}/developers/#versioning`));
  });

  it('without the option, nothing is deprecated and nothing is said', () => {
    const openapi = buildOpenApi(current) as Json;
    assert.equal(openapi.info['x-deprecation'], undefined);
    assert.doesNotMatch(JSON.stringify(openapi), /"deprecated":true|being withdrawn/);
    assert.doesNotMatch(buildAgentsMd(current), /being withdrawn/);
  });

  it('the option refuses a sunset less than 90 days after the announcement, and dates that are not dates', () => {
    assert.throws(
      () =>
        parseAgentApiOptions({ deprecation: { announced: '2027-01-15', sunset: '2027-03-01' } }),
      /deprecation\.sunset`: a `sunset` at least 90 days after `announced`/,
    );
    assert.throws(
      () => parseAgentApiOptions({ deprecation: { announced: 'soon', sunset: '2027-03-01' } }),
      /deprecation\.announced/,
    );
  });
});
