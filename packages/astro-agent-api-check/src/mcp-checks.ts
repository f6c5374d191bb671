import { Ajv2020 } from 'ajv/dist/2020.js';
import { searchQuery } from './api-client.ts';
import { withApi, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass } from './check-result.ts';
import { parseJson, type ApiFacts, type Json } from './discover-site.ts';
import { tokenOf } from './oauth-checks.ts';
import { describeAnswer, mediaType, type HttpAnswer } from './site-http.ts';

/** The two eras of MCP a client may speak: the 2025 handshake (initialize) and the stateless 2026 revision. */
const REVISION_2025 = '2025-11-25';
const REVISION_2026 = '2026-07-28';
const CLIENT_INFO = { name: 'astro-agent-api check', version: '1' };
/** MCP 2026-07-28 — the envelope a stateless request carries in `params._meta`. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION_2026,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** An origin no site allows: a browser page elsewhere, as DNS rebinding would send it. */
const FOREIGN_ORIGIN = 'https://agent-api-check.invalid';

interface RpcAnswer {
  answer: HttpAnswer;
  /** The JSON-RPC response: the JSON body, or the first message of an event stream. */
  message: Json | undefined;
}

let nextId = 1;

/** MCP Streamable HTTP — one JSON-RPC message POSTed to the endpoint, the answer read as JSON or as an event stream. */
export async function rpc(
  context: CheckContext,
  endpoint: string,
  method: string,
  params: Json | undefined,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const notification = method.startsWith('notifications/');
  const token = tokenOf(context);
  const answer = await context.http.fetch(endpoint, {
    method: 'POST',
    fresh: true,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      ...(notification ? {} : { id: nextId++ }),
      method,
      ...(params ? { params } : {}),
    }),
  });
  const text =
    mediaType(answer) === 'text/event-stream'
      ? (/^data:\s?(.*)$/m.exec(answer.text)?.[1] ?? '')
      : answer.text;
  return { answer, message: parseJson(text) };
}

/** What is wrong with a JSON-RPC answer: an HTTP error, a JSON-RPC error, or no result; undefined when there is a result. */
export function rpcProblem(what: string, { answer, message }: RpcAnswer): string | undefined {
  if (answer.status !== 200)
    return `${what}: ${describeAnswer(answer, 'POST')} ${answer.text.slice(0, 160)}`;
  if (message?.error)
    return `${what}: JSON-RPC error ${message.error.code} ${message.error.message}`;
  return message?.result ? undefined : `${what}: no result in ${answer.text.slice(0, 160)}`;
}

/** The arguments a tools/call sends: search_pages with the run's query, else a tool that needs none. */
function pickToolCall(tools: Json[], query: string): { name: string; arguments: Json } | undefined {
  const search = tools.find((tool) => tool.name === 'search_pages');
  if (search) return { name: 'search_pages', arguments: { query } };
  const plain = tools.find((tool) => !(tool.inputSchema?.required?.length > 0));
  return plain ? { name: plain.name, arguments: {} } : undefined;
}

/** What is wrong with a list of tools and a call of one: ≥ 1 tool with an inputSchema, a result, structured content true to the outputSchema. */
function toolProblems(
  what: string,
  tools: unknown,
  call: RpcAnswer | undefined,
  called: { name: string } | undefined,
): string[] {
  if (!Array.isArray(tools) || tools.length === 0) return [`${what}: tools/list lists no tool`];
  const problems = (tools as Json[])
    .filter((tool) => typeof tool.name !== 'string' || tool.inputSchema?.type !== 'object')
    .map((tool) => `${what}: tool ${String(tool.name)} has no object inputSchema`);
  if (!call || !called)
    return [...problems, `${what}: no tool to call without knowing its arguments`];
  const problem = rpcProblem(`${what} tools/call ${called.name}`, call);
  if (problem) return [...problems, problem];
  const result = call.message!.result as Json;
  if (result.isError)
    return [
      ...problems,
      `${what}: tools/call ${called.name} is an error: ${JSON.stringify(result.content).slice(0, 160)}`,
    ];
  if (!Array.isArray(result.content) || result.content.length === 0)
    problems.push(`${what}: tools/call ${called.name} has no content`);
  const outputSchema = (tools as Json[]).find((tool) => tool.name === called.name)?.outputSchema;
  if (outputSchema && result.structuredContent !== undefined) {
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(outputSchema);
    if (!validate(result.structuredContent))
      problems.push(
        `${what}: structuredContent of ${called.name} does not match its outputSchema: ${validate.errors?.[0]?.instancePath} ${validate.errors?.[0]?.message}`,
      );
  }
  return problems;
}

export const mcpChecks: CheckRuns = {
  'mcp-2025': withApi(async (context, api: ApiFacts) => {
    const endpoint = api.mcpEndpoint;
    const initialize = await rpc(context, endpoint, 'initialize', {
      protocolVersion: REVISION_2025,
      capabilities: {},
      clientInfo: CLIENT_INFO,
    });
    const initProblem = rpcProblem('initialize', initialize);
    if (initProblem) return fail('the MCP endpoint does not answer initialize', [initProblem]);
    const init = initialize.message!.result as Json;
    const problems: string[] = [];
    if (typeof init.serverInfo?.name !== 'string') problems.push('initialize: no serverInfo.name');
    const version = String(init.protocolVersion);
    const session = initialize.answer.headers.get('mcp-session-id');
    const headers = {
      'MCP-Protocol-Version': version,
      ...(session ? { 'Mcp-Session-Id': session } : {}),
    };
    const initialized = await rpc(
      context,
      endpoint,
      'notifications/initialized',
      undefined,
      headers,
    );
    if (initialized.answer.status !== 202 && initialized.answer.status !== 200)
      problems.push(`notifications/initialized → ${initialized.answer.status}, not 202`);
    const list = await rpc(context, endpoint, 'tools/list', {}, headers);
    const listProblem = rpcProblem('tools/list', list);
    if (listProblem) return fail('tools/list fails', [...problems, listProblem]);
    const tools = list.message!.result.tools;
    const called = Array.isArray(tools)
      ? pickToolCall(tools, searchQuery(context, api) ?? 'test')
      : undefined;
    const call = called && (await rpc(context, endpoint, 'tools/call', called, headers));
    problems.push(...toolProblems(REVISION_2025, tools, call, called));
    let resources = 0;
    if (init.capabilities?.resources) {
      const listed = await rpc(context, endpoint, 'resources/list', {}, headers);
      const uri = (listed.message?.result?.resources as Json[] | undefined)?.[0]?.uri;
      resources = listed.message?.result?.resources?.length ?? 0;
      if (rpcProblem('resources/list', listed) || typeof uri !== 'string')
        problems.push(
          rpcProblem('resources/list', listed) ??
            'resources/list lists no resource, though the server declares resources',
        );
      else {
        const read = await rpc(context, endpoint, 'resources/read', { uri }, headers);
        const content = read.message?.result?.contents?.[0];
        if (rpcProblem('resources/read', read)) problems.push(rpcProblem('resources/read', read)!);
        else if (
          content?.uri !== uri ||
          typeof content.text !== 'string' ||
          content.text.length === 0
        )
          problems.push(`resources/read of ${uri} gives no text content for it`);
      }
    }
    return problems.length > 0
      ? fail(`MCP ${REVISION_2025} at ${endpoint}: ${problems.length} problem(s)`, problems)
      : pass(
          `${init.serverInfo.name} speaks ${version}: ${tools.length} tools, ${called!.name} called${init.capabilities?.resources ? `, ${resources} resources, one read` : ''}`,
        );
  }),

  'mcp-2026': withApi(async (context, api) => {
    const endpoint = api.mcpEndpoint;
    const current = (method: string, params: Json, name?: string) =>
      rpc(
        context,
        endpoint,
        method,
        { ...params, _meta: ENVELOPE },
        {
          'MCP-Protocol-Version': REVISION_2026,
          'Mcp-Method': method,
          ...(name ? { 'Mcp-Name': name } : {}),
        },
      );
    const discover = await current('server/discover', {});
    const discoverProblem = rpcProblem('server/discover', discover);
    if (discoverProblem)
      return fail(`the MCP endpoint does not answer server/discover (${REVISION_2026})`, [
        discoverProblem,
      ]);
    const problems: string[] = [];
    const versions = discover.message!.result.supportedVersions;
    if (!Array.isArray(versions) || !versions.includes(REVISION_2026))
      problems.push(
        `server/discover: supportedVersions ${JSON.stringify(versions)} lacks ${REVISION_2026}`,
      );
    const list = await current('tools/list', {});
    const listProblem = rpcProblem('tools/list', list);
    if (listProblem) return fail(`stateless tools/list fails`, [...problems, listProblem]);
    const tools = list.message!.result.tools;
    const called = Array.isArray(tools)
      ? pickToolCall(tools, searchQuery(context, api) ?? 'test')
      : undefined;
    const call = called && (await current('tools/call', called, called.name));
    problems.push(...toolProblems(REVISION_2026, tools, call, called));
    if (call?.message?.result && call.message.result.resultType !== 'complete')
      problems.push(
        `tools/call: resultType is ${JSON.stringify(call.message.result.resultType)}, not "complete"`,
      );
    return problems.length > 0
      ? fail(`MCP ${REVISION_2026} at ${endpoint}: ${problems.length} problem(s)`, problems)
      : pass(
          `server/discover lists ${versions.join(', ')}; stateless tools/list (${tools.length}) and tools/call answer`,
        );
  }),

  'mcp-transport': withApi(async (context, api) => {
    const endpoint = api.mcpEndpoint;
    const problems: string[] = [];
    const get = await context.http.fetch(endpoint, {
      fresh: true,
      headers: { Accept: 'text/event-stream' },
    });
    if (get.status !== 405 && !(get.status === 200 && mediaType(get) === 'text/event-stream'))
      problems.push(
        `GET ${endpoint} → ${get.status} ${mediaType(get)}, not 405 or an event stream`,
      );
    const foreign = await rpc(
      context,
      endpoint,
      'tools/list',
      { _meta: ENVELOPE },
      { Origin: FOREIGN_ORIGIN, 'MCP-Protocol-Version': REVISION_2026, 'Mcp-Method': 'tools/list' },
    );
    if (foreign.answer.status !== 403)
      problems.push(
        `a request from Origin ${FOREIGN_ORIGIN} → ${foreign.answer.status}, not 403 (MCP Streamable HTTP: validate Origin against DNS rebinding)`,
      );
    return problems.length > 0
      ? fail(`the MCP endpoint's transport rules are not kept`, problems)
      : pass(`GET → ${get.status}; a foreign Origin → 403`);
  }),
};
