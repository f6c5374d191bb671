/**
 * What every client of the matrix (tests/integration/client-matrix.test.ts) shares: the two sites it
 * connects to, the network each session goes through, what a model reads from a tool call, and the
 * OAuth clients and tokens the steps start from.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { SQLITE_FILE_NAME } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { startAddressProxy, type AddressProxy } from './address-proxy.ts';
import { prepareExampleSite, type ServedExample, serveExampleSite } from './example-site.ts';
import { startTestServer, type TestServer } from './server.ts';

type Json = Record<string, any>;

/**
 * The anonymous quota the matrix's servers run with (AGENT_API_QUOTA_ANONYMOUS): enough for one step's
 * requests from one network, few enough that the refusal step spends the rest at once.
 */
export const MATRIX_ANONYMOUS_QUOTA = 15;

/** A site the clients connect to, at the address its build publishes, with what the steps ask of it. */
export interface MatrixSite {
  name: string;
  /** The address the build publishes (its discovery documents and OAuth endpoints are under it). */
  origin: string;
  /** What a user gives the client: `${origin}/mcp`. */
  mcpUrl: string;
  /** Where the test server listens. */
  served: string;
  /** The server's AGENT_API_DATA_DIR (its sqlite store). */
  dataDir: string;
  /** A search whose first result is a page of the site. */
  query: string;
  /** One page, read by every client: its address and its Markdown twin as the site serves it. */
  page: { url: string; twin: string };
  /** The site's prompt and an argument for it. */
  prompt: { name: string; question: string };
  /** The tools the server card lists: what `tools/list` must show. */
  tools: string[];
  close(): Promise<void>;
}

/** The demo (the shared test build, published at http://localhost:4321) and examples/blog built from the packed package for an address of its own. */
export async function startMatrixSites(): Promise<{
  demo: MatrixSite;
  example: MatrixSite;
  routes: Map<string, string>;
  close(): Promise<void>;
}> {
  const quota = { AGENT_API_QUOTA_ANONYMOUS: String(MATRIX_ANONYMOUS_QUOTA) };
  const exampleOrigin = 'http://localhost:4322';
  // One after the other: packing the package (prepack) empties its dist/, which the demo's build and server import.
  const exampleBuild = await prepareExampleSite('blog', { site: exampleOrigin });
  let exampleServer: ServedExample | undefined;
  let demoServer: TestServer;
  try {
    exampleServer = await serveExampleSite(exampleBuild, quota);
    demoServer = await startTestServer({ env: quota });
  } catch (error) {
    await exampleServer?.stop();
    await exampleBuild.remove();
    throw error;
  }
  const served = exampleServer;
  const demo = await describeSite({
    name: 'demo',
    origin: 'http://localhost:4321',
    served: demoServer.url,
    dataDir: demoServer.dataDir,
    query: 'fuga de agua en Madrid',
    pagePath: '/servicios/fontaneria/madrid/',
    prompt: {
      name: 'answer_customer_question',
      question: '¿Podéis venir hoy a arreglar una fuga en Sevilla?',
    },
    close: () => demoServer.close(),
  });
  const example = await describeSite({
    name: 'example',
    origin: exampleOrigin,
    served: served.url,
    dataDir: served.dataDir,
    query: 'http caching',
    pagePath: '/posts/http-caching/',
    prompt: { name: 'answer_question', question: 'How long should a stylesheet be cached?' },
    close: async () => {
      await served.stop();
      await exampleBuild.remove();
    },
  });
  return {
    demo,
    example,
    routes: new Map([
      [demo.origin, demo.served],
      [example.origin, example.served],
    ]),
    close: async () => {
      await Promise.all([demo.close(), example.close()]);
    },
  };
}

async function describeSite(
  facts: Omit<MatrixSite, 'mcpUrl' | 'page' | 'tools'> & { pagePath: string },
): Promise<MatrixSite> {
  const { pagePath, ...site } = facts;
  const twin = await fetch(`${site.served}${pagePath}`, { headers: { accept: 'text/markdown' } });
  if (!twin.ok) throw new Error(`${site.name}: ${pagePath} has no Markdown twin (${twin.status})`);
  const card = (await (
    await fetch(`${site.served}/.well-known/mcp/server-card.json`)
  ).json()) as Json;
  return {
    ...site,
    mcpUrl: `${site.origin}/mcp`,
    page: { url: `${site.origin}${pagePath}`, twin: await twin.text() },
    tools: card.tools.map((tool: Json) => tool.name),
  };
}

/**
 * The network one client session goes through: a proxy that sends the sites' published addresses to
 * their test servers, from a loopback address of the session's own (its own anonymous quota and
 * registration limit). Clients in this process reach it through undici's global dispatcher, which
 * Node's fetch uses: every library is configured with the site's URL and nothing else, as its users do
 * (LangChain's adapter takes no fetch at all). Child processes get the proxy in their environment.
 */
export type Network = AddressProxy;

/** Runs `task` with every fetch of this process going through a new network; the previous dispatcher is restored after. */
export async function withNetwork<T>(
  routes: ReadonlyMap<string, string>,
  task: (network: Network) => Promise<T>,
): Promise<T> {
  const network = await startAddressProxy(routes);
  const previous = getGlobalDispatcher();
  setGlobalDispatcher(network.dispatcher);
  try {
    return await task(network);
  } finally {
    setGlobalDispatcher(previous);
    await network.close();
  }
}

/** The exchanges of a network as lines (`POST http://localhost:4321/mcp [Bearer] → 401`): the HTTP sequence a client went through. */
export function transcript(network: Network): string[] {
  return network.exchanges.map(
    (exchange) =>
      `${exchange.method} ${exchange.url}${exchange.authorization ? ` [${exchange.authorization}]` : ''} → ${exchange.status}`,
  );
}

/** What a model reads from one tool call, as the library hands it over (or, for a command-line client, what it prints). */
export interface Reading {
  /** The text the model gets. */
  text: string;
  /** Whether the result the library hands over is marked as an error; undefined when it carries no such mark. */
  isError?: boolean;
}

/**
 * The JSON a reading's text carries (every tool of the site answers one JSON text): the text itself,
 * the first text block's when the model gets content blocks (or a whole printed result), or the JSON
 * inside an error message.
 */
export function parseReading(reading: Reading): Json {
  const whole = (() => {
    try {
      return JSON.parse(reading.text) as unknown;
    } catch {
      return undefined;
    }
  })();
  const object = whole as Json | undefined;
  const blocks = Array.isArray(whole)
    ? whole
    : object?.type === 'text'
      ? [object]
      : object?.content;
  const block = Array.isArray(blocks)
    ? blocks.find((candidate: Json) => candidate?.type === 'text')
    : undefined;
  if (block) return parseReading({ text: block.text });
  if (whole !== null && typeof whole === 'object') return whole as Json;
  const start = reading.text.indexOf('{');
  if (start < 0) throw new Error(`the model read no JSON:\n${reading.text.slice(0, 500)}`);
  return JSON.parse(reading.text.slice(start, reading.text.lastIndexOf('}') + 1)) as Json;
}

/** How a session authenticates. */
export type Credentials =
  /** A client registered with a secret, using the client credentials grant. */
  | { kind: 'client-credentials'; clientId: string; clientSecret: string }
  /** A client registered with its public key, using the client credentials grant with `private_key_jwt` (RFC 7523). */
  | { kind: 'private-key-jwt'; clientId: string; privateKey: JsonWebKey }
  /** A connector: authorization code + PKCE, starting from a token the server no longer knows. */
  | { kind: 'connector'; staleToken: string };

/** A token in the site's format that it never issued: what a client holds after the server forgot it (a reset store, an expiry). */
export function staleAccessToken(): string {
  return `agt_at_${randomBytes(32).toString('base64url')}`;
}

/**
 * The access token as the site sees it an hour later: its expiry in the site's store moved to the
 * past (the store is read on every request, so the next one with it is refused as expired).
 */
export function expireAccessToken(site: MatrixSite, token: string): void {
  const store = new DatabaseSync(join(site.dataDir, SQLITE_FILE_NAME));
  try {
    const hash = createHash('sha256').update(token).digest('hex');
    const { changes } = store
      .prepare('UPDATE access_tokens SET expires_at = ? WHERE token_hash = ?')
      .run(Date.now() - 1000, hash);
    if (changes !== 1) throw new Error(`${site.name} holds no access token ${token.slice(0, 12)}…`);
  } finally {
    store.close();
  }
}

/** POST JSON or a form to the site's published address through the session's network, as the client's owner would. */
async function post(
  network: Network,
  url: string,
  body: Json | URLSearchParams,
  headers: Record<string, string> = {},
): Promise<Json> {
  const json = !(body instanceof URLSearchParams);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: json ? JSON.stringify(body) : body.toString(),
    dispatcher: network.dispatcher,
  } as RequestInit);
  const answer = (await response.json()) as Json;
  if (!response.ok)
    throw new Error(`POST ${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** A client registered with a secret (RFC 7591), as agents.md shows. */
export async function registerWithSecret(
  site: MatrixSite,
  network: Network,
  name: string,
): Promise<Extract<Credentials, { kind: 'client-credentials' }>> {
  const client = await post(network, `${site.origin}/oauth/register`, { client_name: name });
  return {
    kind: 'client-credentials',
    clientId: client.client_id,
    clientSecret: client.client_secret,
  };
}

/** A client registered with an Ed25519 public key, authenticating with `private_key_jwt`. */
export async function registerWithKey(
  site: MatrixSite,
  network: Network,
  name: string,
): Promise<Extract<Credentials, { kind: 'private-key-jwt' }>> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const privateKey = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const { kty, crv, x } = privateKey;
  const client = await post(network, `${site.origin}/oauth/register`, {
    client_name: name,
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: [{ kty, crv, x, use: 'sig', alg: 'EdDSA' }] },
  });
  return { kind: 'private-key-jwt', clientId: client.client_id, privateKey };
}

/** An access token by the client credentials grant with a secret (RFC 6749 §4.4), for clients that take only a header. */
export async function clientCredentialsToken(
  site: MatrixSite,
  network: Network,
  client: Extract<Credentials, { kind: 'client-credentials' }>,
): Promise<string> {
  const basic = Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  ).toString('base64');
  const issued = await post(
    network,
    `${site.origin}/oauth/token`,
    new URLSearchParams({ grant_type: 'client_credentials', scope: 'content:read quota:read' }),
    {
      authorization: `Basic ${basic}`,
    },
  );
  return issued.access_token;
}

/** An access token by the client credentials grant with `private_key_jwt` (RFC 7523 §2.2), the assertion signed by the MCP SDK's helper, as a script would get one for the header. */
async function privateKeyJwtToken(
  site: MatrixSite,
  network: Network,
  credentials: Extract<Credentials, { kind: 'private-key-jwt' }>,
): Promise<string> {
  const tokenEndpoint = `${site.origin}/oauth/token`;
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: 'content:read quota:read',
  });
  const authenticate = createPrivateKeyJwtAuth({
    issuer: credentials.clientId,
    subject: credentials.clientId,
    privateKey: credentials.privateKey as Record<string, unknown>,
    alg: 'EdDSA',
  });
  await authenticate(new Headers(), body, tokenEndpoint, undefined);
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
    dispatcher: network.dispatcher,
  } as RequestInit);
  const issued = (await response.json()) as Json;
  if (!response.ok)
    throw new Error(`the token endpoint answered ${response.status}: ${JSON.stringify(issued)}`);
  return issued.access_token;
}

/** The token a user of a header-only client passes, obtained as auth.md shows. */
export async function headerToken(
  site: MatrixSite,
  network: Network,
  credentials: Credentials | undefined,
): Promise<string | undefined> {
  switch (credentials?.kind) {
    case undefined:
      return undefined;
    case 'client-credentials':
      return clientCredentialsToken(site, network, credentials);
    case 'private-key-jwt':
      return privateKeyJwtToken(site, network, credentials);
    case 'connector':
      throw new Error('a header-only client has no authorization code flow');
  }
}

/** What the model reads from get_quota shows the identified quota of `clientId` (or, without one, of whichever client the session logged in as). */
export function assertIdentified(reading: Reading, clientId?: string): Json {
  const quota = parseReading(reading);
  if (reading.isError || quota.policy === undefined)
    throw new Error(`the model did not read an identified quota:\n${reading.text.slice(0, 800)}`);
  if (clientId !== undefined && quota.client_id !== clientId)
    throw new Error(`the quota read is ${quota.client_id}'s, not ${clientId}'s`);
  return quota;
}

/** The steps of the matrix, in order. */
export const STEPS = [
  'connects and lists tools, resources and prompts',
  'search → read',
  'resources/read',
  'prompt',
  'ChatGPT search → fetch',
  'refusal: the model reads the wait and the registration hint',
  'read_page reaches the model once',
  'client credentials',
  'private_key_jwt',
  'authorization code + PKCE after a 401',
  'refresh',
] as const;
export type Step = (typeof STEPS)[number];

/** A session of one client library with one site, driven as the library's user drives it. */
export interface ClientSession {
  tools(): Promise<string[]>;
  resources?(): Promise<string[]>;
  prompts?(): Promise<string[]>;
  /** One tool call, and what the model reads from it. */
  call(name: string, args: Json): Promise<Reading>;
  /** The text of a resource. */
  readResource?(uri: string): Promise<string>;
  /** The text of a prompt's messages. */
  getPrompt?(name: string, args: Record<string, string>): Promise<string>;
  /** The access token a logged-in session holds now. */
  accessToken?(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** One client library of the matrix. */
export interface MatrixClient {
  name: string;
  /** Steps the library gives its user no way to take, each with why: they are not in its row. */
  lacks: Partial<Record<Step, string>>;
  /** Opens a session to `site.mcpUrl`, anonymous or with `credentials`. */
  open(site: MatrixSite, network: Network, credentials?: Credentials): Promise<ClientSession>;
}

/**
 * The matrix as it ran, printed at the end of the run: a row per client and site, a column per step
 * ('pass', the start of the failure, or '—' and a note saying why the library has no way to take the
 * step), and the characters the model got for one read_page of the site's page.
 */
export class MatrixReport {
  private readonly rows = new Map<string, Map<string, string>>();
  private readonly reasons: string[] = [];

  /** The row of `client` on `site`: rows are printed in the order they were first asked for. */
  row(client: string, site: string): Map<string, string> {
    const key = `${client} | ${site}`;
    const row = this.rows.get(key) ?? new Map<string, string>();
    this.rows.set(key, row);
    return row;
  }

  record(client: string, site: string, column: string, value: string): void {
    this.row(client, site).set(
      column,
      value.replace(/\s+/g, ' ').replaceAll('|', '\\|').slice(0, 160),
    );
  }

  /** A step the library has no way to take, and why. */
  lack(client: string, site: string, step: Step, reason: string): void {
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
    this.record(client, site, step, `— (${this.reasons.indexOf(reason) + 1})`);
  }

  toMarkdown(): string {
    const columns = [...STEPS, 'read_page characters'].filter((column) =>
      [...this.rows.values()].some((row) => row.has(column)),
    );
    return [
      `| client | site | ${columns.join(' | ')} |`,
      `|${' --- |'.repeat(columns.length + 2)}`,
      ...[...this.rows].map(
        ([row, cells]) =>
          `| ${row} | ${columns.map((column) => cells.get(column) ?? 'not run').join(' | ')} |`,
      ),
      ...(this.reasons.length > 0
        ? ['', ...this.reasons.map((reason, index) => `(${index + 1}) ${reason}`)]
        : []),
    ].join('\n');
  }
}
