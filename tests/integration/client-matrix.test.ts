/**
 * The client matrix: the MCP client libraries people use, pinned from npm, each driven as its users
 * drive it against the demo and against examples/blog (built from the packed package), asserting what
 * the person behind it would see: what a model reads from a tool call, what a command line prints.
 * Every library is given the site's published URL and nothing else; a proxy on loopback sends those
 * addresses to the test servers (tests/helpers/client-matrix.ts), from a network of each session's own.
 * Steps a library has no way to take are '—' in its row, with why (each client's `lacks`). The Python
 * clients run tests/clients/python/client_matrix.py in a virtual environment made for the run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { fetchFrom } from '../helpers/fetch-from.ts';
import {
  assertIdentified,
  type ClientSession,
  type Credentials,
  expireAccessToken,
  MatrixReport,
  type MatrixClient,
  type MatrixSite,
  type Network,
  parseReading,
  type Reading,
  registerWithKey,
  registerWithSecret,
  type Step,
  STEPS,
  staleAccessToken,
  startMatrixSites,
  transcript,
  withNetwork,
} from '../helpers/client-matrix.ts';
import { aiSdk } from '../helpers/mcp-clients/ai-sdk.ts';
import { inspectorCli } from '../helpers/mcp-clients/inspector-cli.ts';
import { langchain } from '../helpers/mcp-clients/langchain.ts';
import { mastra } from '../helpers/mcp-clients/mastra.ts';
import { mcpRemote } from '../helpers/mcp-clients/mcp-remote.ts';
import { openaiAgents } from '../helpers/mcp-clients/openai-agents.ts';
import {
  createPythonEnvironment,
  PYTHON_LIBRARIES,
  type PythonEnvironment,
  type PythonStep,
  runPythonMatrix,
} from '../helpers/mcp-clients/python.ts';
import { tsSdkV1, tsSdkV2 } from '../helpers/mcp-clients/ts-sdk.ts';

const CLIENTS: MatrixClient[] = [
  tsSdkV1,
  tsSdkV2,
  mcpRemote,
  inspectorCli,
  aiSdk,
  openaiAgents,
  langchain,
  mastra,
];

let sites: Awaited<ReturnType<typeof startMatrixSites>>;
/** The Python clients' environment, made while the sites build (pip waits on the network, the build on the CPU). */
let python: Promise<PythonEnvironment> | undefined;
before(async () => {
  python = createPythonEnvironment();
  // Awaited by the Python tests, which fail with its error.
  python.catch(() => {});
  sites = await startMatrixSites();
});
const report = new MatrixReport();
after(async () => {
  console.log(`The client matrix:\n${report.toMarkdown()}`);
  await sites?.close();
  await (await python?.catch(() => undefined))?.remove();
});

/** A step of `client`'s row on `siteName`, in a network of its own; '—' in the report, with why, when the library has no way to take it. */
function step(
  client: MatrixClient,
  siteName: 'demo' | 'example',
  name: Step,
  body: (site: MatrixSite, network: Network, t: TestContext) => Promise<void>,
): void {
  report.row(client.name, siteName);
  const lacking = client.lacks[name];
  if (lacking !== undefined) {
    report.lack(client.name, siteName, name, `${client.name}: ${lacking}`);
    return;
  }
  test(name, async (t) => {
    try {
      await withNetwork(sites.routes, (network) => body(sites[siteName], network, t));
      report.record(client.name, siteName, name, 'pass');
    } catch (error) {
      report.record(client.name, siteName, name, `FAIL: ${(error as Error).message}`);
      throw error;
    }
  });
}

/** Opens a session, runs `use` and closes it whatever happens. */
async function using<T>(
  client: MatrixClient,
  site: MatrixSite,
  network: Network,
  credentials: Credentials | undefined,
  use: (session: ClientSession) => Promise<T>,
): Promise<T> {
  const session = await client.open(site, network, credentials);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

/** A tool call whose failure to reach the model as a result (the library threw) fails the step with what was thrown. */
async function callForModel(
  session: ClientSession,
  name: string,
  args: Record<string, unknown>,
): Promise<Reading> {
  try {
    return await session.call(name, args);
  } catch (error) {
    throw new Error(
      `the library threw instead of handing the model a result: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Spends what is left of the network's anonymous quota with REST calls from the same address, and returns the 429's Retry-After. */
async function exhaustAnonymousQuota(site: MatrixSite, network: Network): Promise<number> {
  const get = fetchFrom(network.sourceAddress);
  for (let request = 0; request < 100; request += 1) {
    const response = await get(
      `${site.served}/api/v1/search_pages?query=${encodeURIComponent(site.query)}`,
    );
    if (response.status === 429) return Number(response.headers.get('retry-after'));
  }
  throw new Error('the anonymous quota never ran out');
}

/** A phrase of the page's text with no character JSON escapes: counted in what the model reads. */
function plainPhrase(markdown: string): string {
  const line = markdown.split('\n').find((candidate) => /^[\p{L}\p{N} ,.]{60,}/u.test(candidate));
  assert.ok(line, 'the page has a plain line of text');
  return line.slice(0, 60);
}

function occurrences(text: string, phrase: string): number {
  return text.split(phrase).length - 1;
}

for (const client of CLIENTS) {
  describe(client.name, () => {
    for (const siteName of ['demo', 'example'] as const) {
      describe(`on the ${siteName}`, () => {
        step(client, siteName, 'connects and lists tools, resources and prompts', (site, network) =>
          using(client, site, network, undefined, async (session) => {
            assert.deepEqual((await session.tools()).sort(), [...site.tools].sort());
            if (session.resources)
              assert.ok(
                (await session.resources()).includes(`${site.origin}/`),
                'the home page is a resource',
              );
            if (session.prompts) assert.deepEqual(await session.prompts(), [site.prompt.name]);
          }),
        );

        step(client, siteName, 'search → read', (site, network) =>
          using(client, site, network, undefined, async (session) => {
            const found = parseReading(
              await callForModel(session, 'search_pages', { query: site.query }),
            );
            const first = found.results[0];
            assert.ok(
              first?.url.startsWith(site.origin),
              `the search found a page: ${JSON.stringify(found).slice(0, 300)}`,
            );
            const page = await callForModel(session, 'read_page', { url: first.url });
            assert.notEqual(page.isError, true, page.text.slice(0, 500));
            assert.ok(
              page.text.includes(first.title),
              `the page read is the one found: ${first.title}`,
            );
          }),
        );

        step(client, siteName, 'resources/read', (site, network) =>
          using(client, site, network, undefined, async (session) => {
            assert.equal(await session.readResource!(site.page.url), site.page.twin);
          }),
        );

        step(client, siteName, 'prompt', (site, network) =>
          using(client, site, network, undefined, async (session) => {
            const text = await session.getPrompt!(site.prompt.name, {
              question: site.prompt.question,
            });
            assert.ok(text.includes(site.prompt.question), text.slice(0, 300));
            assert.ok(
              text.indexOf('search_pages') < text.indexOf('read_page'),
              'it says to search, then read',
            );
          }),
        );

        step(client, siteName, 'ChatGPT search → fetch', (site, network) =>
          using(client, site, network, undefined, async (session) => {
            const found = parseReading(
              await callForModel(session, 'search', { query: site.query }),
            );
            const first = found.results[0];
            assert.ok(
              first &&
                typeof first.id === 'string' &&
                typeof first.title === 'string' &&
                first.url.startsWith(site.origin),
              JSON.stringify(found).slice(0, 300),
            );
            const document = parseReading(await callForModel(session, 'fetch', { id: first.id }));
            assert.equal(document.id, first.id);
            assert.equal(document.url, first.url);
            assert.equal(document.title, first.title);
            assert.ok(typeof document.text === 'string' && document.text.length > 100);
            assert.equal(typeof document.metadata, 'object');
          }),
        );

        step(
          client,
          siteName,
          'refusal: the model reads the wait and the registration hint',
          (site, network) =>
            using(client, site, network, undefined, async (session) => {
              await session.tools();
              const retryAfter = await exhaustAnonymousQuota(site, network);
              const exhaustedAt = performance.now();
              const refused = await callForModel(session, 'search_pages', { query: site.query });
              const since = Math.ceil((performance.now() - exhaustedAt) / 1000);
              assert.notEqual(
                refused.isError,
                false,
                `the result is marked as an error: ${refused.text.slice(0, 500)}`,
              );
              const wait = /\b(?:retry|wait)[^.\d]{0,20}?(\d+) ?s(?:econds?)?\b/i.exec(
                refused.text,
              );
              assert.ok(wait, `the model reads how long to wait:\n${refused.text}`);
              const read = Number(wait[1]);
              assert.ok(
                read <= retryAfter && read >= retryAfter - since - 1,
                `the wait read (${read} s) is the server's (${retryAfter} s, ${since} s earlier)`,
              );
              assert.match(
                refused.text,
                /\/oauth\/register|auth\.md/,
                'the model reads where to get a higher quota',
              );
            }),
        );

        step(client, siteName, 'read_page reaches the model once', (site, network, t) =>
          using(client, site, network, undefined, async (session) => {
            const reading = await callForModel(session, 'read_page', { url: site.page.url });
            t.diagnostic(
              `read_page of ${site.page.url}: ${reading.text.length} characters for the model`,
            );
            report.record(
              client.name,
              site.name,
              'read_page characters',
              String(reading.text.length),
            );
            assert.equal(
              occurrences(reading.text, plainPhrase(site.page.twin)),
              1,
              'the page text is in what the model reads once',
            );
          }),
        );

        step(client, siteName, 'client credentials', async (site, network) => {
          const credentials = await registerWithSecret(site, network, `${client.name} matrix`);
          await using(client, site, network, credentials, async (session) => {
            assertIdentified(await callForModel(session, 'get_quota', {}), credentials.clientId);
          });
        });

        step(client, siteName, 'private_key_jwt', async (site, network) => {
          const credentials = await registerWithKey(site, network, `${client.name} matrix key`);
          await using(client, site, network, credentials, async (session) => {
            assertIdentified(await callForModel(session, 'get_quota', {}), credentials.clientId);
          });
        });

        step(client, siteName, 'authorization code + PKCE after a 401', (site, network, t) =>
          using(
            client,
            site,
            network,
            { kind: 'connector', staleToken: staleAccessToken() },
            async (session) => {
              assertIdentified(await callForModel(session, 'get_quota', {}));
              const lines = transcript(network);
              t.diagnostic(`the login on the wire:\n${lines.join('\n')}`);
              const unauthorized = lines.findIndex((line) =>
                line.startsWith(`POST ${site.mcpUrl} [Bearer] → 401`),
              );
              const authorized = lines.findIndex((line) =>
                line.startsWith(`GET ${site.origin}/oauth/authorize?`),
              );
              const exchanged = lines.findIndex(
                (line, index) =>
                  index > authorized &&
                  line.startsWith(`POST ${site.origin}/oauth/token`) &&
                  line.endsWith('→ 200'),
              );
              assert.ok(
                unauthorized >= 0 && authorized > unauthorized && exchanged > authorized,
                lines.join('\n'),
              );
              assert.ok(
                lines
                  .slice(exchanged)
                  .some((line) => line === `POST ${site.mcpUrl} [Bearer] → 200`),
                'the client retried with the new token',
              );
            },
          ),
        );

        step(client, siteName, 'refresh', (site, network, t) =>
          using(
            client,
            site,
            network,
            { kind: 'connector', staleToken: staleAccessToken() },
            async (session) => {
              const { client_id } = assertIdentified(await callForModel(session, 'get_quota', {}));
              const expired = await session.accessToken!();
              assert.ok(expired, 'the session holds an access token');
              expireAccessToken(site, expired);
              const loggedIn = network.exchanges.length;
              assertIdentified(await callForModel(session, 'get_quota', {}), client_id);
              const lines = transcript(network).slice(loggedIn);
              t.diagnostic(`after the access token expired:\n${lines.join('\n')}`);
              const refreshed = lines.findIndex(
                (line) =>
                  line.startsWith(`POST ${site.origin}/oauth/token`) && line.endsWith('→ 200'),
              );
              assert.ok(refreshed >= 0, `the client refreshed its token:\n${lines.join('\n')}`);
              assert.ok(
                !lines.some((line) => line.includes('/oauth/authorize')),
                'without sending the person to log in again',
              );
              assert.ok(
                lines
                  .slice(refreshed)
                  .some((line) => line === `POST ${site.mcpUrl} [Bearer] → 200`),
                'and retried with the new token',
              );
              assert.notEqual(await session.accessToken!(), expired);
            },
          ),
        );
      });
    }
  });
}

describe('Python clients (tests/clients/python/client_matrix.py)', () => {
  /** Each library's run on each site, all at once: each from a network of its own, in processes of their own. */
  const runs = new Map<string, Promise<PythonStep[]>>();
  before(async () => {
    const environment = await python!;
    for (const library of PYTHON_LIBRARIES) {
      for (const siteName of ['demo', 'example'] as const) {
        const run = runPythonMatrix(environment, library.key, sites[siteName], sites.routes);
        // Awaited by its test.
        run.catch(() => {});
        runs.set(`${library.key} ${siteName}`, run);
      }
    }
  });

  for (const library of PYTHON_LIBRARIES) {
    for (const siteName of ['demo', 'example'] as const) {
      report.row(library.name, siteName);
      test(`${library.name} on the ${siteName}`, async (t) => {
        const steps = await runs.get(`${library.key} ${siteName}`)!;
        for (const { step, passed, note } of steps) {
          report.record(library.name, siteName, step, passed ? 'pass' : `FAIL: ${note}`);
          const characters =
            step === 'read_page reaches the model once' && /^(\d+) characters/.exec(note);
          if (characters)
            report.record(library.name, siteName, 'read_page characters', characters[1]!);
          await t.test(step, (subtest) => {
            if (note) subtest.diagnostic(note);
            assert.ok(passed, note);
          });
        }
        assert.deepEqual(
          steps.map(({ step }) => step).sort(),
          [...STEPS].sort(),
          'every step of the matrix ran',
        );
      });
    }
  }
});
