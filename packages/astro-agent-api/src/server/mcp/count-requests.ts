import type { Tool } from '../../operations/operation.ts';
import { isRequest } from './json-rpc-errors.ts';

/** The requests that read content: each costs one request of the quota, as a REST call does. */
const COUNTED_METHODS = new Set(['tools/call', 'resources/read']);

/**
 * What a JSON-RPC body costs the caller's quota: each `tools/call` and `resources/read` once, as
 * REST counts calls, except a tools/call of a tool whose policy only peeks at the quota
 * (get_quota). Discovery and listings (`initialize`, `server/discover`, `tools/list`, …) and
 * notifications cost nothing and are never refused: they say what the server card already
 * publishes for free, and clients ask them again and again (OpenAI's Agents SDK lists the tools on
 * every turn of a run) where one refused listing ends the whole run before the model could read a
 * refusal. A body that holds no JSON-RPC at all (not JSON, an empty batch) costs one request, as the
 * SDK still answers it.
 */
export function countRequests(
  parsed: unknown,
  tools: ReadonlyMap<string, Pick<Tool, 'policy'>>,
): number {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (parsed === undefined || messages.length === 0) return 1;
  let count = 0;
  for (const message of messages) {
    if (!isRequest(message)) {
      if (!isNotification(message)) count++;
      continue;
    }
    if (!COUNTED_METHODS.has(message.method)) continue;
    const name =
      message.method === 'tools/call'
        ? (message.params as { name?: unknown } | undefined)?.name
        : undefined;
    const tool = typeof name === 'string' ? tools.get(name) : undefined;
    if (tool?.policy.quota !== 'peek') count++;
  }
  return count;
}

/** A body that asks for content (a tools/call or a resources/read), which needs to know who calls. */
export function readsContent(parsed: unknown): boolean {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.some((message) => isRequest(message) && COUNTED_METHODS.has(message.method));
}

function isNotification(message: unknown): boolean {
  return (
    message !== null &&
    typeof message === 'object' &&
    typeof (message as { method?: unknown }).method === 'string' &&
    !('id' in message)
  );
}
