import type { Outcome, OutcomeListener } from '../../outcome.ts';
import type { SignedAgentVerifier } from './verify-signed-agent.ts';

/** What the traffic report counts without a caller step: pages, Markdown twins and agent documents. */
const CONTENT_SURFACES: ReadonlySet<Outcome['surface']> = new Set(['page', 'markdown', 'document']);

export interface SignedOutcomeReporter {
  /** Reports `outcome`, the answer to `request`: at once, or after its signature is verified. */
  report(outcome: Outcome, request: Request): void;
  /** Resolves once every outcome reported so far has reached the listeners. */
  settled(): Promise<void>;
}

/**
 * Attributes a page, twin or document fetched with a Web Bot Auth signature to the agent that signed
 * it, in the traffic report. The signature is verified off the answer's path, a timer's turn after
 * the answer was handed over, and with `cachedOnly`: the key directory an API request already fetched,
 * or, for an agent the site trusts, fetched now; an untrusted agent's page never makes the server fetch
 * anything. A verified signature's nonce is claimed as an API request's would be. Every other outcome
 * is reported at once. (BENCHMARKS.md, "Signed agents on pages", measures what this costs.)
 */
export function createSignedOutcomeReporter(report: OutcomeListener, verifierOf: () => Promise<SignedAgentVerifier>): SignedOutcomeReporter {
  const pending = new Set<Promise<void>>();
  return {
    report(outcome, request) {
      if (outcome.caller || !CONTENT_SURFACES.has(outcome.surface) || !request.headers.has('signature-input')) return report(outcome);
      const attributed: Promise<void> = new Promise((resolve) => setTimeout(resolve, 0))
        .then(async () => (await verifierOf())(request, { cachedOnly: true }))
        .then(
          (agent) => {
            if (agent) outcome.caller = { clientId: agent.origin, scopes: [], anonymous: true, agent };
          },
          () => {},
        )
        .finally(() => {
          pending.delete(attributed);
          report(outcome);
        });
      pending.add(attributed);
    },
    async settled() {
      await Promise.all(pending);
    },
  };
}
