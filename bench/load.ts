/**
 * The serving side of the harness: the servers under test as child processes, and autocannon
 * (in this process) to load them. Every scenario, the ceiling included, builds each request with the
 * same `setupRequest` machinery, so the load generator pays the same per-request cost everywhere.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setPriority } from 'node:os';
import type { HeapSpaceInfo } from 'node:v8';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { ROOT } from './generate-site.ts';
import { buildNewQueries, buildQueries, type BenchQuery } from './queries.ts';
import type { BuiltManifest } from '../packages/astro-agent-api/src/content/manifest.ts';

export interface ServerHandle {
  url: string;
  child: ChildProcess;
  rss(): Promise<number>;
  stop(): Promise<void>;
}

/** What bench/serve-front.mjs reports of its memory: process.memoryUsage(), its CPU and GC time so far, V8's heap spaces, and each answer memo's fill and hit count. */
export interface FrontMemory {
  usage: NodeJS.MemoryUsage;
  cpu: NodeJS.CpuUsage;
  /** Milliseconds of garbage-collection pauses on the main thread: young generation (scavenges) and the rest. */
  gc: { young: number; full: number };
  spaces: HeapSpaceInfo[];
  memos: MemoStats[];
}

export interface MemoStats {
  /** The memo's budget (lru-cache's `maxSize`) and what it holds against it. */
  maxSize: number;
  calculatedSize: number;
  hits: number;
  misses: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx, and socket errors/timeouts. */
  failures: number;
}

/** A request template; `next()` returns the path (and body) of each request in turn. */
export interface Scenario {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  next(): { path: string; body?: string };
}

/** Forks a harness child that reports `{ url }` over IPC once it listens. */
export function forkServer(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  execArgv: string[] = [],
): Promise<ServerHandle> {
  const child = fork(join(ROOT, 'bench', script), args, {
    env,
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with code ${code} before listening`)),
    );
    child.once('message', (message: { url: string }) => {
      resolve({
        url: message.url,
        child,
        rss: () => askChild<{ rss: number }>(child, 'rss').then((reply) => reply.rss),
        stop: () => stopChild(child, () => child.send('stop')),
      });
    });
  });
}

/**
 * The Node flags `npm start` runs its server with (the start script of the repository's package.json,
 * e.g. the young generation's size): the harness measures the production front as it runs.
 */
export const START_NODE_FLAGS: string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1).filter((word) => word.startsWith('--'));
})();

/** The production front (bench/serve-front.mjs) on the build in `outDir`, with `npm start`'s Node flags unless others are given. */
export function forkFront(
  outDir: string,
  env: NodeJS.ProcessEnv,
  execArgv: string[] = START_NODE_FLAGS,
): Promise<ServerHandle> {
  return forkServer('serve-front.mjs', [outDir], env, execArgv);
}

/** The naive comparison: the plain Astro endpoints of bench/naive-site in the node adapter's standalone server. */
export function startNaiveServer(manifestPath: string): Promise<ServerHandle> {
  const entry = join(ROOT, 'bench', '.sites', 'naive', 'dist', 'server', 'entry.mjs');
  return startStandaloneServer(
    entry,
    { ...process.env, BENCH_MANIFEST: manifestPath },
    '/api/v1/get_company_info',
  );
}

/**
 * A built site's own @astrojs/node standalone server (`node dist/server/entry.mjs`) on a free loopback
 * port, ready once `readyPath` answers 200.
 */
export async function startStandaloneServer(
  entry: string,
  env: NodeJS.ProcessEnv,
  readyPath: string,
  execArgv: string[] = [],
): Promise<ServerHandle> {
  const port = await freePort();
  const child = spawn(process.execPath, [...execArgv, entry], {
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${entry} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    rss: async () => 0,
    stop: () => stopChild(child, () => child.kill('SIGTERM')),
  };
}

/** Sets the scheduling priority of each process, where that is allowed (root); elsewhere they run as they are. */
export function setPriorities(pids: number[], priority: number): void {
  for (const pid of pids) {
    try {
      setPriority(pid, priority);
    } catch {
      // not allowed here (needs root): measured at normal priority
    }
  }
}

/** Sends `message` to a harness child and resolves with its next message (the children answer one message at a time). */
export function askChild<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (reply: T) => resolve(reply));
    child.send(message as string);
  });
}

function stopChild(child: ChildProcess, ask: () => void): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    ask();
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Warm-up (discarded), then the measured run: 20 connections. */
export async function measureLoad(
  url: string,
  scenarios: Scenario[],
  seconds: number,
  warmupSeconds: number,
): Promise<LoadResult> {
  if (warmupSeconds > 0) await runAutocannon(url, scenarios, warmupSeconds);
  return runAutocannon(url, scenarios, seconds);
}

async function runAutocannon(
  url: string,
  scenarios: Scenario[],
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: 20,
    duration: seconds,
    requests: scenarios.map((scenario) => ({
      method: scenario.method ?? 'GET',
      headers: scenario.headers ?? {},
      setupRequest: (request: { path: string; body?: string }) => {
        const next = scenario.next();
        request.path = next.path;
        if (next.body !== undefined) request.body = next.body;
        return request;
      },
    })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The server's memory: a fresh front (bench/serve-front.mjs, as `npm start`) on the build in `outDir`, the
 * mixed load (`mixedScenarios`) for `seconds`, then its RSS.
 */
export async function measureServerMemory(
  outDir: string,
  seconds: number,
  env: NodeJS.ProcessEnv,
): Promise<{ load: LoadResult; rss: number }> {
  const front = await forkFront(outDir, env);
  try {
    const load = await measureLoad(
      front.url,
      mixedScenarios(await readBuiltManifest(outDir)),
      seconds,
      0,
    );
    return { load, rss: await front.rss() };
  } finally {
    await front.stop();
  }
}

/** Cycles through `items` forever. */
export function cycle<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

export interface SiteRequests {
  pagePaths: string[];
  apiBasePath: string;
  /** The search queries to cycle through; default: 500 of the 35 repeated subjects ± a city. */
  searchQueries?: BenchQuery[];
}

const SEARCH_QUERIES = buildQueries(500, 3);
const MCP_REVISION = '2026-07-28';
const MCP_LEGACY_REVISION = '2025-11-25';
const MCP_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MCP_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'agent-api-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The agent scenarios, by name, over a site's pages. */
export function agentScenarios({
  pagePaths,
  apiBasePath,
  searchQueries = SEARCH_QUERIES,
}: SiteRequests): Record<string, Scenario> {
  const page = cycle(pagePaths);
  const query = cycle(searchQueries);
  const mcpId = cycle(Array.from({ length: 1000 }, (_, i) => i + 1));
  const searchPath = () => {
    const { query: q, city } = query();
    return `${apiBasePath}/search_pages?query=${encodeURIComponent(q)}${city ? `&city=${city}` : ''}`;
  };
  return {
    read_page: {
      next: () => ({ path: `${apiBasePath}/read_page?url=${encodeURIComponent(page())}` }),
    },
    get_company_info: { next: () => ({ path: `${apiBasePath}/get_company_info` }) },
    search_pages: { next: () => ({ path: searchPath() }) },
    markdown: { headers: { Accept: 'text/markdown' }, next: () => ({ path: page() }) },
    mcp_legacy_search_pages: {
      method: 'POST',
      // A 2025-era client after its initialize handshake: no envelope, the negotiated version in the header.
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': MCP_LEGACY_REVISION,
      },
      next: () => {
        const { query: q, city } = query();
        return {
          path: '/mcp',
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: mcpId(),
            method: 'tools/call',
            params: { name: 'search_pages', arguments: city ? { query: q, city } : { query: q } },
          }),
        };
      },
    },
    mcp_search_pages: {
      method: 'POST',
      // The current revision (2026-07-28): the per-request envelope in `_meta`, the same facts in headers.
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': MCP_REVISION,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'search_pages',
      },
      next: () => {
        const { query: q, city } = query();
        return {
          path: '/mcp',
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: mcpId(),
            method: 'tools/call',
            params: {
              name: 'search_pages',
              arguments: city ? { query: q, city } : { query: q },
              _meta: MCP_ENVELOPE,
            },
          }),
        };
      },
    },
  };
}

/**
 * The memory row's load, over a site's manifest: read_page, search_pages (two shares of it), get_company_info
 * and Markdown negotiation, side by side; every search new (as agents send them), so no cache can keep
 * the memory low.
 */
export function mixedScenarios(manifest: BuiltManifest): Scenario[] {
  const searchQueries = buildNewQueries(
    manifest.pages,
    Object.keys(manifest.options.facets.city?.values ?? {}),
    20_000,
    29,
  );
  const mixed = agentScenarios({
    pagePaths: shuffle(manifest.pages.map((page) => page.path)),
    apiBasePath: manifest.options.apiBasePath,
    searchQueries,
  });
  return [
    mixed.read_page!,
    mixed.search_pages!,
    mixed.get_company_info!,
    mixed.markdown!,
    mixed.search_pages!,
  ];
}

/** `items` in a fixed pseudo-random order (seeded: every run and every server gets the same). */
export function shuffle<T>(items: T[]): T[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  return items
    .map((item) => [random(), item] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, item]) => item);
}

/** Registers a client (RFC 7591) and returns an access token for it (client credentials, both scopes). */
export async function issueToken(url: string): Promise<string> {
  const registration = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'agent-api-bench' }),
  });
  if (registration.status !== 201)
    throw new Error(
      `POST /oauth/register answered ${registration.status}: ${await registration.text()}`,
    );
  const { client_id, client_secret } = (await registration.json()) as {
    client_id: string;
    client_secret: string;
  };
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${btoa(`${client_id}:${client_secret}`)}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (!response.ok)
    throw new Error(`POST /oauth/token answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** True when the server answers an MCP tools/call (the MCP endpoint may not be merged yet). */
export async function probeMcp(url: string, scenario: Scenario): Promise<string | undefined> {
  const { path, body } = scenario.next();
  try {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: scenario.headers,
      body,
    });
    const text = await response.text();
    if (response.ok && text.includes('"result"')) return undefined;
    return `POST /mcp answered ${response.status}: ${text.slice(0, 160)}`;
  } catch (error) {
    return `POST /mcp failed: ${String(error)}`;
  }
}
