import { serializeItem, Token } from 'structured-headers';
import type { CallerInfo } from '../../operations/operation.ts';

/** Longest `reason` sent back: the cause in a few words, not a log. */
const MAX_REASON_LENGTH = 120;

/**
 * The `Web-Bot-Auth` response field: what the request's Web Bot Auth signature came to, for the agent
 * that sent it, as an RFC 9651 Item: the draft's outcome as a token (`verified`, `invalid`,
 * `unverified`) with the agent's identifier, or the reason in printable ASCII. A signer otherwise
 * cannot tell a signature this site refused from one it never looked at, since either way the
 * request is served as anonymous. Undefined when the request carried no such signature.
 */
export function buildWebBotAuthField(caller: CallerInfo | undefined): string | undefined {
  const signature = caller?.signature;
  if (signature === undefined) return undefined;
  const parameters = new Map<string, string>();
  if (signature.outcome === 'verified' && caller?.agent) parameters.set('agent', caller.agent.id);
  if (signature.reason !== undefined)
    parameters.set(
      'reason',
      signature.reason.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_REASON_LENGTH),
    );
  return serializeItem([new Token(signature.outcome), parameters]);
}
