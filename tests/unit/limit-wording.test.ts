import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildDocuments } from '../../packages/astro-agent-api/src/documents/write-documents.ts';
import { LIMITS } from '../../packages/astro-agent-api/src/contract/limits.ts';
import {
  formatDuration,
  formatPerPeriod,
} from '../../packages/astro-agent-api/src/contract/period-words.ts';
import {
  agentSkillPath,
  DOCUMENT_PATHS,
  WELL_KNOWN_PATHS,
} from '../../packages/astro-agent-api/src/contract/paths.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { agentApiOptions } from '../../src/data/agent-api.ts';
import { buildTestPage } from '../helpers/built-page.ts';

const site = 'https://www.reparohogar.example';
const parsed = parseAgentApiOptions(agentApiOptions);
const options = resolveAgentApiOptions(parsed, { url: site, pageLanguages: [] });
const pages = [
  buildTestPage(site, '/', { title: 'Inicio', language: 'es', markdown: '# Inicio\n\nTexto.\n' }),
];
const { anonymous, identified } = options.policies;

/** The text of a document: a JSON document's string values, one a line; any other as it is. */
function textOf(path: string, content: string): string {
  if (!path.endsWith('.json') && !path.startsWith('/.well-known/oauth')) return content;
  const strings = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : value !== null && typeof value === 'object'
        ? Object.values(value).flatMap(strings)
        : [];
  return strings(JSON.parse(content)).join('\n');
}

/** The sentence that begins at `anchor`: up to its full stop, its table cell's end or the next clause of a list. */
function sentenceAt(text: string, anchor: string): string {
  const start = text.indexOf(anchor);
  assert.ok(start >= 0, `no sentence begins with ${JSON.stringify(anchor)}`);
  const rest = text.slice(start + anchor.length);
  const end = rest.search(/\.(\s|$)| \||, more than|\n/);
  return anchor + (end < 0 ? rest : rest.slice(0, end));
}

/** Each limit, where the documents state it: the document, how its sentence begins and the words it must say. */
function statements() {
  const { registration, token, failedAuthentication, authorization, agentAuthorization } =
    LIMITS.oauth;
  const quota = formatPerPeriod(LIMITS.quotaWindowSeconds);
  const raise = `${identified.quota} requests ${quota}`;
  return [
    {
      limit: 'quotaWindowSeconds',
      document: DOCUMENT_PATHS.auth,
      anchor: 'A token only raises the quota',
      says: raise,
    },
    {
      limit: 'quotaWindowSeconds',
      document: DOCUMENT_PATHS.agents,
      anchor: 'A token is never needed to read',
      says: raise,
    },
    {
      limit: 'quotaWindowSeconds',
      document: DOCUMENT_PATHS.openapi,
      anchor: 'read content with the raised quota',
      says: `${anonymous.quota} requests ${quota}`,
    },
    {
      limit: 'quotaWindowSeconds',
      document: WELL_KNOWN_PATHS.authorizationServer,
      anchor: `${identified.quota} requests`,
      says: raise,
    },
    {
      limit: 'quotaWindowSeconds',
      document: WELL_KNOWN_PATHS.mcpServerCard,
      anchor: 'Optional: a bearer token',
      says: raise,
    },
    {
      limit: 'quotaWindowSeconds',
      document: agentSkillPath(options.name),
      anchor: '- Without credentials:',
      says: `${anonymous.quota} requests ${quota}`,
    },
    {
      limit: 'oauth.registration',
      document: DOCUMENT_PATHS.auth,
      anchor: `more than ${registration.limit} registrations`,
      says: formatPerPeriod(registration.windowSeconds),
    },
    {
      limit: 'oauth.registration',
      document: DOCUMENT_PATHS.auth,
      anchor: '| registrations |',
      says: formatPerPeriod(registration.windowSeconds),
    },
    {
      limit: 'oauth.registration',
      document: DOCUMENT_PATHS.openapi,
      anchor: 'Anonymous, automatic, free',
      says: formatPerPeriod(registration.windowSeconds),
    },
    {
      limit: 'oauth.token',
      document: DOCUMENT_PATHS.auth,
      anchor: `more than ${token.limit} token requests`,
      says: formatPerPeriod(token.windowSeconds),
    },
    {
      limit: 'oauth.token',
      document: DOCUMENT_PATHS.auth,
      anchor: '| token endpoint |',
      says: formatPerPeriod(token.windowSeconds),
    },
    {
      limit: 'oauth.token',
      document: DOCUMENT_PATHS.openapi,
      anchor: 'An opaque Bearer token valid',
      says: `${token.limit} requests ${formatPerPeriod(token.windowSeconds)}`,
    },
    {
      limit: 'oauth.failedAuthentication',
      document: DOCUMENT_PATHS.auth,
      anchor: `more than ${failedAuthentication.limit} failed client authentications`,
      says: formatPerPeriod(failedAuthentication.windowSeconds),
    },
    {
      limit: 'accessTokenSeconds',
      document: DOCUMENT_PATHS.auth,
      anchor: 'The token is opaque and valid',
      says: formatDuration(LIMITS.accessTokenSeconds),
    },
    {
      limit: 'accessTokenSeconds',
      document: DOCUMENT_PATHS.openapi,
      anchor: 'An opaque Bearer token valid',
      says: `${LIMITS.accessTokenSeconds} s`,
    },
    {
      limit: 'accessTokenSeconds',
      document: DOCUMENT_PATHS.agents,
      anchor: 'gives a Bearer token valid',
      says: `${LIMITS.accessTokenSeconds} s`,
    },
    {
      limit: 'oauth.authorization',
      document: DOCUMENT_PATHS.auth,
      anchor: '- **New grants are limited where a person is.**',
      says: formatPerPeriod(authorization.windowSeconds),
    },
    {
      limit: 'oauth.authorization',
      document: DOCUMENT_PATHS.auth,
      anchor: '| new grants (authorizations) |',
      says: formatPerPeriod(authorization.windowSeconds),
    },
    {
      limit: 'oauth.authorization',
      document: DOCUMENT_PATHS.agents,
      anchor: '- **New grants are limited where a person is.**',
      says: formatPerPeriod(authorization.windowSeconds),
    },
    {
      limit: 'oauth.authorization',
      document: DOCUMENT_PATHS.openapi,
      anchor: `${authorization.limit} new grants`,
      says: formatPerPeriod(authorization.windowSeconds),
    },
    {
      limit: 'oauth.agentAuthorization',
      document: DOCUMENT_PATHS.auth,
      anchor: '- **An assistant that signs its requests**',
      says: formatPerPeriod(agentAuthorization.windowSeconds),
    },
    {
      limit: 'refreshTokenSeconds',
      document: DOCUMENT_PATHS.auth,
      anchor: '| refresh token |',
      says: formatDuration(LIMITS.refreshTokenSeconds),
    },
    {
      limit: 'refreshTokenSeconds',
      document: DOCUMENT_PATHS.auth,
      anchor: '- **Refreshing**',
      says: formatDuration(LIMITS.refreshTokenSeconds),
    },
  ];
}

function assertDocumentsStateLimits() {
  const documents = buildDocuments({ site, options, company: parsed.company, pages });
  for (const { limit, document, anchor, says } of statements()) {
    const content = documents.get(document);
    assert.ok(content !== undefined, `${document} is built`);
    assert.ok(
      sentenceAt(textOf(document, content), anchor).includes(says),
      `${document}: the sentence at ${JSON.stringify(anchor)} states ${limit} as ${JSON.stringify(says)}`,
    );
  }
}

describe('the limits the documents state', () => {
  const published = structuredClone(LIMITS);
  // The fixture changes the one object the server enforces; the test process is its own.
  const limits = LIMITS as unknown as {
    quotaWindowSeconds: number;
    accessTokenSeconds: number;
    refreshTokenSeconds: number;
    oauth: Record<string, { windowSeconds: number }>;
  };
  after(() => Object.assign(limits, structuredClone(published)));

  it('every sentence that states a window or a lifetime says the one of limits.ts', () => {
    assertDocumentsStateLimits();
  });

  it('follow limits.ts when it changes: no window is written by hand', () => {
    limits.quotaWindowSeconds = 120;
    limits.accessTokenSeconds = 5400;
    limits.oauth = {
      ...published.oauth,
      registration: { ...published.oauth.registration, windowSeconds: 7200 },
      agentRegistration: { ...published.oauth.agentRegistration, windowSeconds: 7200 },
      authorization: { ...published.oauth.authorization, windowSeconds: 7200 },
      agentAuthorization: { ...published.oauth.agentAuthorization, windowSeconds: 7200 },
      clientAuthorization: { ...published.oauth.clientAuthorization, windowSeconds: 7200 },
      token: { ...published.oauth.token, windowSeconds: 90 },
      failedAuthentication: { ...published.oauth.failedAuthentication, windowSeconds: 86_400 },
    };
    limits.refreshTokenSeconds = 14 * 86_400;
    assertDocumentsStateLimits();
    const documents = buildDocuments({ site, options, company: parsed.company, pages });
    for (const [path, content] of documents)
      assert.doesNotMatch(
        content,
        /per (minute|hour)\b|one hour/,
        `${path} still states a window of the old limits`,
      );
  });
});

describe('period words', () => {
  it('say a period in the largest unit that divides it', () => {
    assert.deepEqual([60, 3600, 120, 90, 86_400, 1].map(formatDuration), [
      '1 minute',
      '1 hour',
      '2 minutes',
      '90 seconds',
      '1 day',
      '1 second',
    ]);
    assert.deepEqual([60, 3600, 120, 90].map(formatPerPeriod), [
      'per minute',
      'per hour',
      'per 2 minutes',
      'per 90 seconds',
    ]);
  });
});
