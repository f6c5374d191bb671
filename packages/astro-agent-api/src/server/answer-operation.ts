import type { ContentSnapshot } from '../content/content-model.ts';
import type { Operation } from '../operations/operation.ts';
import { callOperation } from './call-operation.ts';
import type { Handler } from './context.ts';
import type { Gate } from './gate.ts';
import { readQueryArguments } from './parse-input.ts';
import { rateLimitHeaders } from './rate-limit.ts';
import { buildCacheHeaders, represent } from './represent.ts';
import { renderError, type ErrorLogger } from './respond.ts';
import { JSON_TYPE } from '../contract/media-types.ts';

/**
 * GET {apiBasePath}{op.path}, after the route and method steps: caller → quota → validate →
 * operation → representation, each step reading the operation's policy. Every answer from the quota
 * step on carries the caller's RateLimit headers, errors included (they were counted).
 */
export function createOperationRoute(
  op: Operation,
  deps: { gate: Gate; snapshot: ContentSnapshot; resourceMetadata: string; log: ErrorLogger },
): Handler {
  const requests = op.policy.quota === 'count' ? 1 : 0;
  return async (request, context, outcome) => {
    const caller = await deps.gate.identify(request, context, deps.resourceMetadata);
    outcome.caller = caller;
    const quota = await deps.gate.charge(caller, requests);
    const limits = rateLimitHeaders(quota);
    try {
      const args = readQueryArguments(op, new URL(request.url).searchParams);
      const result = await callOperation(op, args, {
        caller,
        snapshot: deps.snapshot,
        resourceMetadata: deps.resourceMetadata,
        readQuota: async () => quota,
        calls: outcome.calls,
      });
      const headers = { ...limits, ...buildCacheHeaders(op.policy.cache, request) };
      return represent(request, {
        bytes: result.bytes,
        type: JSON_TYPE,
        ...(result.etag ? { etag: result.etag } : {}),
        encoded: result.encoded,
        headers,
      });
    } catch (error) {
      return renderError(error, 'api', deps.log, { ...limits, 'Cache-Control': 'no-store' });
    }
  };
}
