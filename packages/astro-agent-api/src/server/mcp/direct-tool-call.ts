import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import type { ContentSnapshot } from '../../content/content-model.ts';
import type { Tool } from '../../operations/operation.ts';
import { buildMcpServerInfo, type McpServerInput } from './create-mcp-server.ts';
import { buildToolResultParts, runTool, type ToolOutcome } from './tools.ts';

/** The revision the direct answer speaks; anything else goes through the SDK. */
const DIRECT_REVISION = '2026-07-28';
const DIRECT_PARAMS = new Set(['name', 'arguments', '_meta']);
/** The per-request envelope keys; `_meta` with anything more (progress token, trace context, log level) goes through the SDK. */
const DIRECT_META = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
]);

/**
 * The fast path beside the SDK: a plain 2026-07-28 `tools/call` of one of our tools is answered here,
 * without the SDK's per-request server and transport, which cost several times the call itself: a
 * server with every tool registered, zod parsing of the request and of the result, the REST body
 * parsed back into an object and serialized again, an Error with a stack on every close (measured in
 * BENCHMARKS.md, "What was changed to reach the targets, and what it measured").
 *
 * The answer is the one the SDK gives (tests/integration/mcp-direct.test.ts compares both for the
 * same calls, and fails if this path stops being taken), and it is taken only in the plainest case:
 * classified modern by the SDK's own classifier (envelope valid, headers not contradicting the body),
 * all three standard headers present and equal to the body, a known tool, arguments absent or an
 * object of plain values, and nothing in `params` or `_meta` besides name, arguments and the
 * envelope. Everything else — other methods, the 2025 era, batches, errors of the ladder — goes to
 * the SDK. Returns undefined when the call is not such a one.
 */
export function answerDirectToolCall(
  route: InboundClassificationOutcome,
  headers: Headers,
  tools: ReadonlyMap<string, Tool>,
  input: McpServerInput,
): Promise<Response> | undefined {
  const call = matchDirectToolCall(route, headers, tools);
  if (!call) return undefined;
  return runTool(call.op, call.args, input.callOperation, input.log).then(
    (outcome) =>
      new Response(
        buildToolCallResponseBody(call.id, call.op, outcome, serverInfoMeta(input.snapshot)),
        { headers: { 'Content-Type': 'application/json' } },
      ),
  );
}

function matchDirectToolCall(
  route: InboundClassificationOutcome,
  headers: Headers,
  tools: ReadonlyMap<string, Tool>,
) {
  if (
    route.kind !== 'modern' ||
    route.messageKind !== 'request' ||
    route.classification.revision !== DIRECT_REVISION
  )
    return undefined;
  const { method, id, params } = route.message as {
    method: string;
    id: string | number;
    params?: Record<string, unknown>;
  };
  if (method !== 'tools/call' || !isPlainObject(params)) return undefined;
  for (const key in params) if (!DIRECT_PARAMS.has(key)) return undefined;
  const op = typeof params.name === 'string' ? tools.get(params.name) : undefined;
  if (!op) return undefined;
  if (
    headers.get('mcp-protocol-version') !== DIRECT_REVISION ||
    headers.get('mcp-method') !== 'tools/call' ||
    headers.get('mcp-name') !== op.name
  ) {
    return undefined;
  }
  const meta = params._meta;
  if (!isPlainObject(meta)) return undefined;
  for (const key in meta) if (!DIRECT_META.has(key)) return undefined;
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) return undefined;
  for (const key in args) {
    const value = args[key];
    if (value !== null && typeof value === 'object') return undefined;
  }
  return { id, op, args };
}

/** `_meta` of every 2026-07-28 result: the server's identity, serialized once per build. */
const serverInfoMetas = new WeakMap<ContentSnapshot, string>();
function serverInfoMeta(snapshot: ContentSnapshot): string {
  let meta = serverInfoMetas.get(snapshot);
  if (meta === undefined) {
    meta = JSON.stringify({ [SERVER_INFO_META_KEY]: buildMcpServerInfo(snapshot) });
    serverInfoMetas.set(snapshot, meta);
  }
  return meta;
}

/**
 * Encoded heads of successful tool results, keyed by the tool and the REST body: agents repeat
 * searches (REST caches search answers for the same reason), and escaping a body into the text block
 * and encoding the whole to UTF-8 was the largest cost left in a direct answer. Bounded by bytes.
 */
const resultHeads = new LRUCache<string, Uint8Array>({
  maxSize: 8 * 1024 * 1024,
  sizeCalculation: (head, key) => head.byteLength + key.length,
});

/**
 * The JSON-RPC response the SDK writes for a tools/call on 2026-07-28 (the tool's result, then
 * `resultType` and `_meta` with the server's identity), with the result's parts (tools.ts
 * buildToolResultParts) placed as they are: the structured JSON verbatim as `structuredContent`, the
 * text as one JSON string in the text block, instead of parsed into an object and serialized again.
 */
function buildToolCallResponseBody(
  id: string | number,
  tool: Tool,
  outcome: ToolOutcome,
  meta: string,
): Uint8Array<ArrayBuffer> {
  if (outcome.error) {
    // A tool error's `_meta` (its code, status, retry_after) is merged with the server's identity, as the SDK merges them.
    const result = {
      ...outcome.error,
      _meta: { ...outcome.error._meta, ...(JSON.parse(meta) as object) },
      resultType: 'complete',
    };
    return Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id }));
  }
  // The tools of one site differ by name; a body is the tool's own answer.
  const key = `${tool.name}\u0000${outcome.body}`;
  let head = resultHeads.get(key);
  if (!head) {
    const { text, structured } = buildToolResultParts(tool, outcome.body);
    // Kept, so in a buffer of its own: a kept slice of Node's shared pool keeps its whole 64 KB chunk.
    head = new TextEncoder().encode(
      `{"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${structured}`,
    );
    resultHeads.set(key, head);
  }
  const tail = Buffer.from(
    `,"resultType":"complete","_meta":${meta}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
  );
  const bytes = new Uint8Array(head.byteLength + tail.byteLength);
  bytes.set(head, 0);
  bytes.set(tail, head.byteLength);
  return bytes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
