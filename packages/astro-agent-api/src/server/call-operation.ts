import type { ContentSnapshot } from '../content/content-model.ts';
import type { CallFacts, QuotaInfo, Tool } from '../operations/operation.ts';
import { assertScope, type Caller } from './caller.ts';
import type { OperationCall } from '../operations/outcome.ts';
import { parseOperationInput } from './parse-input.ts';
import { buildEtag, type Representation } from './represent.ts';

/** An operation's answer serialized once: REST sends the bytes, MCP places their text in its tool result. */
export interface OperationResult {
  /** The JSON answer as UTF-8, encoded once: a Response made from a string re-checks and re-encodes it on every request. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Strong validator of an answer that depends only on the input and the build (policy `cache: 'build'`). */
  etag?: string;
  /** Its compressed forms, made when first asked for: kept with the answer when the build keeps it. */
  encoded: Representation['encoded'];
  facts: CallFacts;
}

export interface CallScope {
  caller: Caller;
  snapshot: ContentSnapshot;
  /** The RFC 9728 document named in a 401 or 403 (the API's for REST, the site's for MCP). */
  resourceMetadata: string;
  readQuota(): Promise<QuotaInfo>;
  /** Where the call is noted for the request's outcome. */
  calls: OperationCall[];
}

/**
 * The part of a call that REST (query parameters) and MCP (tool arguments) share, for a caller
 * already identified and counted: scope (from the operation's policy) → validate → operation.
 * Answers that are few per build (the operation's `buildKey`) are kept in the build's memo, recent
 * answers of the many kind (its `recentKey`) in the smaller memo of those; both are bounded by bytes,
 * in buffers of their own (a kept slice of Node's shared pool would keep its whole 64 KB chunk).
 * Throws ApiError.
 */
export async function callOperation(
  op: Tool,
  rawArgs: Record<string, unknown>,
  scope: CallScope,
): Promise<OperationResult> {
  const call: OperationCall = { operation: op.name, ok: false };
  scope.calls.push(call);
  assertScope(scope.caller, op.policy, scope.resourceMetadata, scope.snapshot.urls);
  const input = parseOperationInput(op, rawArgs);
  const { snapshot } = scope;
  const kept = keptIn(op, input, snapshot);
  let result = kept?.memo.get(kept.key) as OperationResult | undefined;
  if (!result) {
    const output = await op.handle(input, {
      content: snapshot,
      caller: scope.caller,
      readQuota: scope.readQuota,
    });
    const body = JSON.stringify(output);
    result = {
      bytes: kept === undefined ? Buffer.from(body) : new TextEncoder().encode(body),
      ...(op.policy.cache === 'build'
        ? {
            etag: buildEtag(
              snapshot.manifest.buildId,
              kept?.key ?? `${op.name}\u0000${JSON.stringify(input)}`,
            ),
          }
        : {}),
      encoded: {},
      facts: op.describeCall?.(input, output) ?? {},
    };
    kept?.memo.set(kept.key, result);
  }
  Object.assign(call, result.facts, { ok: true });
  return result;
}

/** Where the answer to `input` is kept within its build, if it is, and under which key. */
function keptIn(
  op: Tool,
  input: Record<string, unknown>,
  snapshot: ContentSnapshot,
): { memo: ContentSnapshot['memo']; key: string } | undefined {
  const key = op.buildKey?.(input, snapshot);
  if (key !== undefined) return { memo: snapshot.memo, key: `${op.name}\u0000${key}` };
  const recent = op.recentKey?.(input);
  return recent === undefined
    ? undefined
    : { memo: snapshot.recent, key: `${op.name}\u0000${recent}` };
}
