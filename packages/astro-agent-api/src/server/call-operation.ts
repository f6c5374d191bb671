import { createHash } from 'node:crypto';
import type { ContentSnapshot } from '../content/content-model.ts';
import type { CallFacts, Operation, QuotaInfo } from '../operations/operation.ts';
import { assertScope, type Caller } from './caller.ts';
import type { OperationCall } from './outcome.ts';
import { parseOperationInput } from './parse-input.ts';
import type { Representation } from './represent.ts';

/** An operation's answer serialized once: REST sends the bytes, MCP places the body in its tool result. */
export interface OperationResult {
  body: string;
  /** `body` as UTF-8, encoded once: a Response made from a string re-checks and re-encodes it on every request. */
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
 * Answers that are few per build (the operation's `buildKey`) are serialized once and kept on the
 * build's snapshot: the cache is bounded by the build itself, where an LRU smaller than the site
 * thrashes when agents crawl it. Throws ApiError.
 */
export async function callOperation(op: Operation, rawArgs: Record<string, unknown>, scope: CallScope): Promise<OperationResult> {
  const call: OperationCall = { operation: op.name, ok: false };
  scope.calls.push(call);
  assertScope(scope.caller, op.policy, scope.resourceMetadata);
  const input = parseOperationInput(op, rawArgs);
  const { snapshot } = scope;
  const key = op.buildKey?.(input, snapshot);
  const memoKey = key === undefined ? undefined : `${op.name}\u0000${key}`;
  let result = memoKey === undefined ? undefined : (snapshot.memo.get(memoKey) as OperationResult | undefined);
  if (!result) {
    const output = await op.handle(input, { content: snapshot, caller: scope.caller, readQuota: scope.readQuota });
    const body = JSON.stringify(output);
    result = {
      body,
      bytes: Buffer.from(body),
      ...(op.policy.cache === 'build' ? { etag: buildEtag(snapshot.manifest.buildId, memoKey ?? `${op.name}\u0000${JSON.stringify(input)}`) } : {}),
      encoded: {},
      facts: op.describeCall?.(input, output) ?? {},
    };
    if (memoKey !== undefined) snapshot.memo.set(memoKey, result);
  }
  Object.assign(call, result.facts, { ok: true });
  return result;
}

/**
 * RFC 9110 §8.8.3 — a strong entity tag for an answer that the build and the validated input decide:
 * both hashed, which costs a few bytes of SHA-1 where hashing the body cost one per answer size.
 */
function buildEtag(buildId: string, answer: string): string {
  return `"${createHash('sha1').update(`${buildId}\u0000${answer}`).digest('base64url').slice(0, 22)}"`;
}
