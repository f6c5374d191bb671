import type { Operation } from '../../operations/operation.ts';
import { isRequest } from './json-rpc-errors.ts';

/**
 * What a JSON-RPC body costs the caller's quota, the way REST counts calls: each request message
 * once — discovery, listings and reads alike, since each builds a server — except a tools/call of an
 * operation whose policy only peeks at the quota (get_quota). Notifications cost nothing; a body
 * that holds no JSON-RPC at all (not JSON, an empty batch) costs one request, as the SDK still
 * answers it.
 */
export function countRequests(parsed: unknown, operations: ReadonlyMap<string, Operation>): number {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (parsed === undefined || messages.length === 0) return 1;
  let count = 0;
  for (const message of messages) {
    if (!isRequest(message)) {
      if (!isNotification(message)) count++;
      continue;
    }
    const name = message.method === 'tools/call' ? (message.params as { name?: unknown } | undefined)?.name : undefined;
    const op = typeof name === 'string' ? operations.get(name) : undefined;
    if (op?.policy.quota !== 'peek') count++;
  }
  return count;
}

function isNotification(message: unknown): boolean {
  return message !== null && typeof message === 'object' && typeof (message as { method?: unknown }).method === 'string' && !('id' in message);
}
