/**
 * The grader (astro-agent-api-check) against the built demo behind a proxy that breaks one thing at a time: each
 * planted defect must fail the check that names it, and no other check but those the defect breaks
 * too. The unbroken demo passes them all.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { checkAgentReady, type CheckReport } from 'astro-agent-api-check';
import { runCommand, childEnv } from '../helpers/child-process.ts';
import {
  startDefectProxy,
  type Defect,
  type DefectProxy,
  type ProxiedResponse,
} from '../helpers/defect-proxy.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SITE = 'http://localhost:4321';
/** The integration's command, whose `check` runs the grader's: both take the same arguments. */
const INTEGRATION_CLI = fileURLToPath(
  new URL('../../packages/astro-agent-api/dist/cli.js', import.meta.url),
);
const GRADER_CLI = fileURLToPath(
  new URL(
    '../../packages/astro-agent-api-check/dist/astro-agent-api-check/src/cli.js',
    import.meta.url,
  ),
);
/** Few pages and links per run: every row runs the whole check. */
const RUN = { canonicalOrigin: SITE, maxPages: 4, maxLinks: 80, concurrency: 8 } as const;

let server: TestServer;
let proxy: DefectProxy;

before(async () => {
  server = await startTestServer();
  proxy = await startDefectProxy(server.url);
});
after(async () => {
  await proxy?.close();
  await server?.close();
});

const path = (url: string) => url.split('?')[0]!;
const json = (response: ProxiedResponse) => JSON.parse(response.body) as Record<string, any>;
const isJson = (response?: ProxiedResponse) =>
  /json/.test(String(response?.headers['content-type'] ?? ''));

/** The ids that failed. */
function failed(report: CheckReport): string[] {
  return report.checks
    .filter((check) => check.status === 'fail')
    .map((check) => check.id)
    .sort();
}

async function runWith(defect: Defect | undefined): Promise<CheckReport> {
  proxy.plant(defect);
  try {
    return await checkAgentReady(proxy.url, RUN);
  } finally {
    proxy.plant(undefined);
  }
}

interface PlantedDefect {
  name: string;
  /** The checks that must fail: the one named by the defect first, then those it breaks as well. */
  fails: string[];
  /** A detail line that names the defect, where the check's id alone does not show it was caught. */
  evidence?: RegExp;
  defect: Defect;
}

const DEFECTS: PlantedDefect[] = [
  {
    name: 'a twin served as text/html',
    fails: ['markdown-url', 'markdown-alternate-link'],
    defect: (request, response) => {
      if (
        response &&
        path(request.url).endsWith('.md') &&
        !['/agents.md', '/auth.md'].includes(path(request.url))
      )
        response.headers['content-type'] = 'text/html; charset=utf-8';
    },
  },
  {
    name: 'Accept: text/markdown answered without Vary',
    fails: ['markdown-negotiation'],
    defect: (request, response) => {
      if (
        response &&
        /text\/markdown/.test(String(request.headers.accept)) &&
        !path(request.url).endsWith('.md')
      )
        delete response.headers.vary;
    },
  },
  {
    name: 'a dead link in llms.txt',
    fails: ['llms-txt-links-resolve', 'published-urls'],
    evidence: /gone-page\.md → 404/,
    defect: (request, response) => {
      if (response && path(request.url) === '/llms.txt')
        response.body = response.body.replace(
          '## Páginas principales\n',
          `## Páginas principales\n\n- [Gone](${SITE}/gone-page.md)\n`,
        );
    },
  },
  {
    name: 'llms.txt that leaves out every other page',
    fails: ['llms-txt-coverage'],
    // The missed pages are named, each one a content page of the sample (the home page, listed first, is kept).
    evidence: /^http:\/\/localhost:4321\/[^\s.]+\/$/,
    defect: (request, response) => {
      let link = 0;
      if (response && path(request.url) === '/llms.txt')
        response.body = response.body.replace(/^- \[.*\n/gm, (line) =>
          link++ % 2 === 0 ? line : '',
        );
    },
  },
  {
    name: 'API answers without RateLimit headers',
    fails: ['rate-limit-headers'],
    defect: (request, response) => {
      if (response && path(request.url).startsWith('/api/v1/'))
        for (const name of ['ratelimit', 'ratelimit-policy']) delete response.headers[name];
    },
  },
  {
    name: 'RateLimit-Remaining disagreeing with RateLimit',
    fails: ['rate-limit-headers'],
    defect: (request, response) => {
      if (
        response &&
        path(request.url).startsWith('/api/v1/') &&
        response.headers['ratelimit-remaining']
      )
        response.headers['ratelimit-remaining'] = '999';
    },
  },
  {
    name: 'an openapi.json that is not valid OpenAPI',
    fails: ['openapi'],
    defect: (request, response) => {
      if (response && path(request.url) === '/openapi.json')
        response.body = JSON.stringify({ ...json(response), info: undefined, openapi: '3.1.1' });
    },
  },
  {
    name: 'search answers missing a field openapi.json requires',
    fails: ['openapi-answers'],
    defect: (request, response) => {
      if (response?.status === 200 && path(request.url) === '/api/v1/search_pages')
        response.body = JSON.stringify({ ...json(response), total: undefined });
    },
  },
  {
    name: 'a bad request answered with an HTML error page',
    fails: ['api-errors', 'openapi-answers'],
    defect: (request, response) => {
      if (response?.status === 400 && path(request.url).startsWith('/api/v1/'))
        Object.assign(response, {
          headers: { ...response.headers, 'content-type': 'text/html' },
          body: '<!doctype html><h1>Bad request</h1>',
        });
    },
  },
  {
    name: 'read_page giving another page than the search result',
    fails: ['search-read'],
    defect: (request, response) => {
      if (response?.status === 200 && path(request.url) === '/api/v1/read_page')
        response.body = JSON.stringify({ ...json(response), url: `${SITE}/contacto/` });
    },
  },
  {
    name: 'an empty MCP tool list',
    fails: ['mcp-2025', 'mcp-2026'],
    defect: (request, response) => {
      if (
        response &&
        request.method === 'POST' &&
        path(request.url) === '/mcp' &&
        isJson(response) &&
        json(response).result?.tools
      )
        response.body = JSON.stringify({
          ...json(response),
          result: { ...json(response).result, tools: [] },
        });
    },
  },
  {
    name: 'a foreign Origin accepted by MCP',
    fails: ['mcp-transport'],
    defect: (request) => {
      delete request.headers.origin;
    },
  },
  {
    name: 'a wrong token_endpoint in the OAuth metadata',
    fails: ['oauth-authorization-server', 'oauth-flow'],
    defect: (request, response) => {
      if (response && path(request.url) === '/.well-known/oauth-authorization-server')
        response.body = JSON.stringify({
          ...json(response),
          token_endpoint: `${SITE}/oauth/tokens`,
        });
    },
  },
  {
    name: 'a revocation that revokes nothing',
    fails: ['oauth-flow'],
    defect: (request) => {
      if (request.method === 'POST' && path(request.url) === '/oauth/revoke')
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
          body: '{}',
        };
    },
  },
  {
    name: 'RFC 9728 metadata naming another resource',
    fails: ['oauth-protected-resource'],
    defect: (request, response) => {
      if (response && path(request.url) === '/.well-known/oauth-protected-resource/api/v1')
        response.body = JSON.stringify({ ...json(response), resource: `${SITE}/api` });
    },
  },
  {
    name: 'the API catalog served as plain JSON',
    fails: ['api-catalog'],
    defect: (request, response) => {
      if (response && path(request.url) === '/.well-known/api-catalog')
        response.headers['content-type'] = 'application/json';
    },
  },
  {
    name: 'a SKILL.md that no longer matches its digest',
    fails: ['agent-skills'],
    defect: (request, response) => {
      if (response && path(request.url).endsWith('/SKILL.md'))
        response.body += '\nEdited after the index was written.\n';
    },
  },
  {
    name: 'a soft 404',
    fails: ['http-status-codes'],
    defect: (_request, response) => {
      if (response?.status === 404 && /text\/html/.test(String(response.headers['content-type'])))
        response.status = 200;
    },
  },
  {
    name: 'a published page behind a cross-host redirect chain',
    fails: ['redirects'],
    defect: (request) => {
      if (path(request.url) === '/buscar/')
        return { status: 301, headers: { location: '/buscar' }, body: '' };
      if (path(request.url) === '/buscar')
        return {
          status: 301,
          headers: { location: 'https://elsewhere.example/buscar/' },
          body: '',
        };
    },
  },
  {
    name: 'pages without Link headers',
    fails: ['link-headers'],
    defect: (_request, response) => {
      if (response && /text\/html/.test(String(response.headers['content-type'])))
        delete response.headers.link;
    },
  },
  {
    name: 'twins cached for a week without a validator',
    fails: ['cache-headers'],
    defect: (request, response) => {
      if (response && path(request.url).endsWith('.md')) {
        response.headers['cache-control'] = 'public, max-age=604800';
        delete response.headers.etag;
        delete response.headers['last-modified'];
      }
    },
  },
  {
    name: 'robots.txt without Content-Signal',
    fails: ['robots-content-signal'],
    defect: (request, response) => {
      if (response && path(request.url) === '/robots.txt')
        response.body = response.body.replace(/^Content-Signal:.*$/m, '');
    },
  },
  {
    name: 'robots.txt shutting out ChatGPT-User',
    fails: ['robots-ai-rules'],
    defect: (request, response) => {
      if (response && path(request.url) === '/robots.txt')
        response.body += '\nUser-agent: ChatGPT-User\nDisallow: /\n';
    },
  },
  {
    name: 'a twin whose last_updated is not a date',
    fails: ['markdown-last-updated'],
    evidence: /last_updated is "last week", not a date/,
    defect: (request, response) => {
      const twin =
        /text\/markdown/.test(String(response?.headers['content-type'])) &&
        !/^\/(agents|auth)\.md$|^\/\.well-known\//.test(path(request.url));
      if (response?.status === 200 && twin && response.body.startsWith('---\n'))
        response.body = `---\nlast_updated: last week\n${response.body.slice(4).replace(/^last_updated: .*\n/m, '')}`;
    },
  },
  {
    name: 'a sitemap that is not XML',
    fails: ['sitemap'],
    defect: (request, response) => {
      if (response && path(request.url) === '/sitemap-0.xml')
        response.body = response.body.replace('</urlset>', '<url><loc>oops</urlset>');
    },
  },
];

/** A page of the site that moved: Astro's redirect page for it, and the twin an index built without reading it would give it. */
const STUB_PATH = '/direccion-antigua/';
const STUB_HTML =
  '<!doctype html><title>Redirecting to: /precios/</title><meta http-equiv="refresh" content="0;url=/precios/"><meta name="robots" content="noindex"><link rel="canonical" href="http://localhost:4321/precios/"><body>Redirecting from <code>/direccion-antigua/</code> to <code>/precios/</code></body>';
const STUB_TWIN = `---\ntitle: Redirecting to /precios/\nurl: ${SITE}${STUB_PATH}\n---\n\nRedirecting to /precios/\n`;

/** Serves the stub and its twin in place of the site's 404s. */
function serveStub(request: { url: string }): ProxiedResponse | undefined {
  if (path(request.url) === STUB_PATH)
    return {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=0, must-revalidate',
      },
      body: STUB_HTML,
    };
  if (path(request.url) === '/direccion-antigua.md')
    return {
      status: 200,
      headers: {
        'content-type': 'text/markdown; charset=utf-8',
        'cache-control': 'public, max-age=0, must-revalidate',
      },
      body: STUB_TWIN,
    };
  return undefined;
}

/** The defects of what the agent index holds and of openapi.json: the site's own marks say what is not content. */
const INDEX_DEFECTS: PlantedDefect[] = [
  {
    name: 'a redirect stub listed in llms.txt',
    fails: ['index-content'],
    evidence:
      /^llms\.txt lists http:\/\/localhost:4321\/direccion-antigua\.md: a redirect stub \(meta refresh "0;url=\/precios\/"\); noindex/,
    defect: (request, response) => {
      if (!response) return serveStub(request);
      if (path(request.url) === '/llms.txt')
        response.body += `\n- [Dirección antigua](${SITE}/direccion-antigua.md): la página anterior de precios\n`;
      return undefined;
    },
  },
  {
    name: 'noindex pages (X-Robots-Tag) in search results',
    fails: ['index-content'],
    evidence:
      /^search_pages\?query=.+ answers http:\/\/localhost:4321\/guias\/\S*: noindex \(X-Robots-Tag: noindex\)/,
    defect: (request, response) => {
      if (
        response &&
        path(request.url).startsWith('/guias/') &&
        /text\/html/.test(String(response.headers['content-type']))
      )
        response.headers['x-robots-tag'] = 'noindex';
      return undefined;
    },
  },
  {
    name: 'an MCP resource that is a redirect stub',
    fails: ['index-content'],
    evidence:
      /^MCP resources\/list lists http:\/\/localhost:4321\/direccion-antigua\/: a redirect stub/,
    defect: (request, response) => {
      if (!response) return serveStub(request);
      if (path(request.url) === '/mcp' && isJson(response)) {
        const body = json(response);
        if (Array.isArray(body.result?.resources)) {
          body.result.resources.push({
            uri: `${SITE}${STUB_PATH}`,
            name: 'direccion-antigua',
            title: 'Dirección antigua',
            mimeType: 'text/markdown',
          });
          response.body = JSON.stringify(body);
        }
      }
      return undefined;
    },
  },
  {
    name: 'an openapi.json without paths',
    fails: ['openapi'],
    evidence:
      /^the API index http:\/\/localhost:4321\/api\/v1 answers search_pages \(GET http:\/\/localhost:4321\/api\/v1\/search_pages\), which openapi\.json does not describe/,
    defect: (request, response) => {
      if (response && path(request.url) === '/openapi.json') {
        const { paths: _paths, ...rest } = json(response);
        response.body = JSON.stringify(rest);
      }
      return undefined;
    },
  },
];

describe('astro-agent-api check on the demo', () => {
  test('passes every check, within the anonymous quota budget', async () => {
    const report = await checkAgentReady(proxy.url, { canonicalOrigin: SITE });
    assert.deepEqual(
      failed(report),
      [],
      JSON.stringify(
        report.checks.filter((check) => check.status === 'fail'),
        null,
        2,
      ),
    );
    assert.equal(report.api.detected, true);
    assert.ok(report.summary.pass >= 35, `${report.summary.pass} checks passed`);
    // A third of the anonymous quota at most (docs/contract.md §6: 60 per 60 s).
    assert.ok(
      report.requests.anonymousQuota <= 20,
      `${report.requests.anonymousQuota} requests counted against the anonymous quota`,
    );
    assert.ok(report.durationMs < 30_000, `took ${report.durationMs} ms`);
  });

  for (const planted of [...DEFECTS, ...INDEX_DEFECTS]) {
    test(`fails on ${planted.name}`, async () => {
      const report = await runWith(planted.defect);
      assert.deepEqual(
        failed(report),
        [...planted.fails].sort(),
        `failed: ${failed(report).join(', ')}\n${JSON.stringify(
          report.checks.filter((check) => check.status === 'fail'),
          null,
          2,
        )}`,
      );
      if (planted.evidence) {
        const lines = report.checks.flatMap((check) => check.details);
        assert.ok(
          lines.some((line) => planted.evidence!.test(line)),
          `no detail line matches ${planted.evidence}:\n${lines.join('\n')}`,
        );
      }
    });
  }
});

describe('the grader on the command line', () => {
  test('astro-agent-api check prints the JSON report, writes JUnit XML and exits 1 on a planted defect', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agent-api-check-'));
    proxy.plant(DEFECTS.find((planted) => planted.fails[0] === 'robots-content-signal')!.defect);
    try {
      const junitFile = join(folder, 'reports', 'agent-ready.xml');
      const failure = await runCommand(
        process.execPath,
        [
          INTEGRATION_CLI,
          'check',
          proxy.url,
          '--canonical-origin',
          SITE,
          '--max-pages',
          '3',
          '--max-links',
          '40',
          '--format',
          'json',
          '--junit',
          junitFile,
        ],
        {
          cwd: folder,
          env: childEnv(),
        },
      ).then(
        () => assert.fail('check exited 0 with a planted defect'),
        (error: Error) => error.message,
      );
      assert.match(failure, /failed with exit code 1/);
      const report = JSON.parse(
        failure.slice(failure.indexOf('{'), failure.lastIndexOf('}') + 1),
      ) as CheckReport;
      assert.equal(report.schemaVersion, 1);
      assert.equal(report.site, SITE);
      const signal = report.checks.find((check) => check.id === 'robots-content-signal');
      assert.equal(signal?.status, 'fail');
      assert.equal(
        report.summary.fail,
        report.checks.filter((check) => check.status === 'fail').length,
      );

      const xml = await readFile(junitFile, 'utf8');
      assert.equal(XMLValidator.validate(xml), true);
      const junit = new XMLParser({
        ignoreAttributes: false,
        isArray: (name) => ['testsuite', 'testcase'].includes(name),
      }).parse(xml).testsuites;
      assert.equal(Number(junit['@_failures']), report.summary.fail);
      const cases = junit.testsuite.flatMap((suite: any) => suite.testcase);
      assert.equal(cases.length, report.checks.length);
      const failing = cases.find((testcase: any) =>
        String(testcase['@_name']).startsWith('robots-content-signal:'),
      );
      assert.equal(failing.failure['@_type'], 'robots-content-signal');
      assert.match(failing.failure['#text'], /fix: Add a `Content-Signal/);
    } finally {
      proxy.plant(undefined);
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('astro-agent-api-check: a bad option is a usage error naming it (exit 2)', async () => {
    const message = await runCommand(
      process.execPath,
      [GRADER_CLI, proxy.url, '--sampling', 'sometimes'],
      { cwd: tmpdir(), env: childEnv() },
    ).then(
      () => assert.fail('check accepted --sampling sometimes'),
      (error: Error) => error.message,
    );
    assert.match(message, /exit code 2/);
    assert.match(message, /--sampling must be one of deterministic, random, none/);
  });
});
