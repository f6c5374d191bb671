import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchFrom } from './fetch-from.ts';

/** User-Agents as the agents send them (the samples of the crawler-user-agents list). */
export const USER_AGENTS = {
  GPTBot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
  ClaudeBot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  PerplexityBot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Claude-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'ChatGPT-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  browser:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

/** The client address the traffic comes from: the store must never hold it. */
export const TRAFFIC_ADDRESS = '127.42.13.77';
/** A query that finds nothing on the demo site. */
export const MISSING_QUERY = 'qwxz kvbrt';
export const FOUND_QUERY = 'fontanero';

const PAGE = '/servicios/fontaneria/madrid/';
const OTHER_PAGE = '/urgencias/';
const MCP_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'report-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** What the known mix sent, as the report must count it. */
export interface SentTraffic {
  site: string;
  pageUrl: string;
  otherPageUrl: string;
  /** Results of the found query's answer, and whether it had a next page. */
  found: { results: number; more: boolean };
  /** The bearer token and client id the OAuth client used: the store must hold neither. */
  token: string;
  clientId: string;
}

/**
 * Sends a known mix of agent traffic, spreading it over `bases` (one server, or several instances of
 * one service) in turn: HTML pages fetched by GPTBot and by a browser (not counted), a `.md` twin,
 * Markdown negotiation, two documents, REST operations by three families (one an OAuth client that
 * also names itself ChatGPT-User), a search that finds nothing on REST and on MCP, and an MCP tool
 * call, resource read and tools/list. OAuth registration and token requests are sent too (not counted).
 */
export async function sendKnownTraffic(bases: string[], outDir: string): Promise<SentTraffic> {
  const site = (
    JSON.parse(await readFile(join(outDir, 'agent-api', 'manifest.json'), 'utf8')) as {
      site: string;
    }
  ).site.replace(/\/$/, '');
  const from = fetchFrom(TRAFFIC_ADDRESS);
  let turn = 0;
  const send = async (
    path: string,
    userAgent: string,
    init: RequestInit = {},
    expected = 200,
  ): Promise<Response> => {
    const base = bases[turn++ % bases.length]!;
    const response = await from(`${base}${path}`, {
      ...init,
      headers: { 'user-agent': userAgent, ...(init.headers as Record<string, string>) },
    });
    assert.equal(
      response.status,
      expected,
      `${init.method ?? 'GET'} ${path} as ${userAgent.slice(0, 60)}`,
    );
    return response;
  };
  const mcp = (method: string, name: string, params: Record<string, unknown>) =>
    send('/mcp', USER_AGENTS['Claude-User'], {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: { ...params, _meta: MCP_ENVELOPE },
      }),
    });

  // GPTBot: an HTML page twice, its .md twin, llms.txt.
  await send(PAGE, USER_AGENTS.GPTBot);
  await send(PAGE, USER_AGENTS.GPTBot);
  await send(PAGE.replace(/\/$/, '.md'), USER_AGENTS.GPTBot);
  await send('/llms.txt', USER_AGENTS.GPTBot);
  // A person's browser: HTML pages are not agent traffic; a document is, under "other".
  for (let i = 0; i < 3; i++) await send(PAGE, USER_AGENTS.browser);
  await send('/agents.md', USER_AGENTS.browser);
  // ClaudeBot: negotiation, read_page and a search that finds nothing.
  await send(OTHER_PAGE, USER_AGENTS.ClaudeBot, { headers: { accept: 'text/markdown' } });
  await send(`/api/v1/read_page?url=${encodeURIComponent(OTHER_PAGE)}`, USER_AGENTS.ClaudeBot);
  const missing = (await (
    await send(
      `/api/v1/search_pages?query=${encodeURIComponent(MISSING_QUERY)}`,
      USER_AGENTS.ClaudeBot,
    )
  ).json()) as { total: number };
  assert.equal(missing.total, 0, 'the missing query finds nothing');
  // PerplexityBot: the same filtered search twice.
  let found = { results: 0, more: false };
  for (let i = 0; i < 2; i++) {
    const answer = (await (
      await send(`/api/v1/search_pages?query=${FOUND_QUERY}&city=madrid`, USER_AGENTS.PerplexityBot)
    ).json()) as {
      total: number;
      next_cursor: string | null;
    };
    found = { results: answer.total, more: answer.next_cursor !== null };
  }
  // An OAuth client that calls itself ChatGPT-User: its token decides its family.
  const registered = (await (
    await send(
      '/oauth/register',
      USER_AGENTS['ChatGPT-User'],
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'report test client' }),
      },
      201,
    )
  ).json()) as { client_id: string; client_secret: string };
  const basic = Buffer.from(
    `${encodeURIComponent(registered.client_id)}:${encodeURIComponent(registered.client_secret)}`,
  ).toString('base64');
  const { access_token: token } = (await (
    await send('/oauth/token', USER_AGENTS['ChatGPT-User'], {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
  ).json()) as { access_token: string };
  await send(`/api/v1/read_page?url=${encodeURIComponent(PAGE)}`, USER_AGENTS['ChatGPT-User'], {
    headers: { authorization: `Bearer ${token}` },
  });
  // Claude-User over MCP: a search that finds nothing, a page read as a resource, the tool list.
  const toolCall = (await (
    await mcp('tools/call', 'search_pages', {
      name: 'search_pages',
      arguments: { query: MISSING_QUERY },
    })
  ).json()) as {
    result?: { structuredContent?: { total: number } };
  };
  assert.equal(toolCall.result?.structuredContent?.total, 0, 'the MCP search finds nothing either');
  const read = (await (
    await mcp('resources/read', `${site}${OTHER_PAGE}`, { uri: `${site}${OTHER_PAGE}` })
  ).json()) as { result?: unknown };
  assert.ok(read.result, 'the resource was read');
  await mcp('tools/list', '', {});

  return {
    site,
    pageUrl: `${site}${PAGE}`,
    otherPageUrl: `${site}${OTHER_PAGE}`,
    found,
    token,
    clientId: registered.client_id,
  };
}

const CLI = fileURLToPath(
  new URL('../../node_modules/astro-agent-api/dist/cli.js', import.meta.url),
);

/** Runs `astro-agent-api report` as the editors do, with the server's store in `env`. */
export function runReport(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The store comes only from `env`: a REDIS_URL of the shell must not leak in.
    const { REDIS_URL: _, AGENT_API_DATA_DIR: __, ...inherited } = process.env;
    const child = spawn(process.execPath, [CLI, 'report', ...args], {
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The rows of the Markdown table under the heading that starts with `heading`, as cells. */
export function readSummaryTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## ${heading}`));
  assert.ok(start >= 0, `the summary has a "${heading}" section:\n${markdown}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('| ')) continue;
    rows.push(
      line
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((cell) => cell.trim().replace(/\\\|/g, '|')),
    );
  }
  return rows.slice(2);
}
