import { component, verifySignature, webcrypto, type ComponentDescriptor } from 'http-message-sig';
import { isInnerList, parseDictionary, type InnerList } from 'structured-headers';
import { CLOCK_SKEW_SECONDS, WEB_BOT_AUTH } from '../../identity-contract.ts';
import type { AgentApiOptions } from '../../options.ts';
import type { Store } from '../../store/store.ts';
import type { DocumentCache } from '../outbound/document-cache.ts';
import type { KeyDirectory } from './key-directory.ts';
import { parseSignatureAgent } from './signature-agent.ts';

/** A rate-limit policy: its name in the RateLimit headers and its requests per window. */
export interface NamedPolicy {
  name: string;
  quota: number;
}

/** An agent whose signature was verified, and the policy the site gives it. */
export interface SignedAgent {
  /** The origin its Signature-Agent names: its identity here (Quota.client_id, the traffic report). */
  origin: string;
  policy: NamedPolicy;
}

/** Reads a request's Web Bot Auth signature: the agent it proves, or undefined (unsigned, or a signature that proves nothing). */
export type SignedAgentVerifier = (request: Request) => Promise<SignedAgent | undefined>;

/**
 * Web Bot Auth (draft-meunier-webbotauth-httpsig-protocol) over RFC 9421, verified with Cloudflare's
 * http-message-sig: the signature tagged `web-bot-auth`, Ed25519 only, covering `@authority` (this
 * site's, from `site`: a signature made for another host proves nothing here) and `signature-agent`
 * when the header is sent, with `created`, `expires` and `keyid`, made at most WEB_BOT_AUTH.maxAgeSeconds
 * ago (both within CLOCK_SKEW_SECONDS); the key is the agent's directory entry whose RFC
 * 7638 thumbprint is the `keyid`. Each signature is taken once (its nonce, else its bytes, claimed in
 * the store, so a replay is refused on every instance). Which agents count as themselves is the
 * `signedAgents` option's: an agent that would be counted as anonymous anyway is not verified at all.
 * Every failure is undefined: the request is then anonymous, never an error.
 */
export function createSignedAgentVerifier(deps: {
  store: Store;
  directories: DocumentCache<KeyDirectory>;
  /** This site's origin: `@authority` is its host. */
  siteOrigin: string;
  options: AgentApiOptions['signedAgents'];
  now?: () => number;
}): SignedAgentVerifier {
  const now = deps.now ?? Date.now;
  const { policy, trusted, unlisted } = deps.options;

  function policyOf(origin: string): NamedPolicy | undefined {
    const override = trusted[origin];
    if (override) return { name: override.name ?? policy.name, quota: override.quota ?? policy.quota };
    return unlisted === 'signed' ? policy : undefined;
  }

  return async (request) => {
    const signatureInput = request.headers.get('signature-input');
    if (signatureInput === null || !request.headers.has('signature')) return undefined;
    const candidate = findWebBotAuthSignature(signatureInput);
    if (candidate === undefined) return undefined;
    // The header names the keys: a signature that does not cover it could be pointed at anyone's.
    const signatureAgentHeader = request.headers.get('signature-agent');
    if (signatureAgentHeader === null || candidate.signatureAgent === undefined) return undefined;
    const agent = parseSignatureAgent(signatureAgentHeader, candidate.signatureAgentKey);
    const agentPolicy = agent && policyOf(agent.origin);
    if (!agent || !agentPolicy) return undefined;

    const at = Math.floor(now() / 1000);
    const url = new URL(request.url);
    try {
      const verified = await verifySignature(
        {
          kind: 'request',
          method: request.method,
          targetUri: `${deps.siteOrigin}${url.pathname}${url.search}`,
          fields: [...request.headers].map(([name, value]) => ({ name, value })),
        },
        {
          label: candidate.label,
          policy: {
            algorithms: [WEB_BOT_AUTH.algorithm],
            requiredComponents: ['@authority', candidate.signatureAgent],
            requiredParameters: ['created', 'expires', 'keyid'],
            maxAge: WEB_BOT_AUTH.maxAgeSeconds,
            clockSkew: CLOCK_SKEW_SECONDS,
            now: at,
          },
          async resolveVerifier({ parameters }) {
            const key = (await deps.directories.get(agent.directory, { allowPrivate: agent.origin in trusted })).get(String(parameters.keyid));
            if (key === undefined) throw new Error(`no key ${String(parameters.keyid)} in ${agent.directory.href}`);
            return webcrypto.verifier(key);
          },
        },
      );
      // RFC 9421 §7.2.2: the nonce (or, without one, the signature itself) is taken once while the signature could be accepted.
      const once = typeof verified.parameters.nonce === 'string' ? `n:${verified.parameters.nonce}` : `s:${Buffer.from(verified.signature).toString('base64')}`;
      const acceptableUntil = (Number(verified.parameters.created) + WEB_BOT_AUTH.maxAgeSeconds + 2 * CLOCK_SKEW_SECONDS) * 1000;
      if (!(await deps.store.claimOnce(`web-bot-auth:${agent.origin}:${once}`, acceptableUntil, now()))) return undefined;
      return { origin: agent.origin, policy: agentPolicy };
    } catch {
      return undefined;
    }
  };
}

/**
 * The first signature of `Signature-Input` tagged `web-bot-auth`, with how it covers `signature-agent`
 * (and the Dictionary member it names, draft -01). Other signatures a request carries (a proxy's) are
 * left alone.
 */
function findWebBotAuthSignature(header: string): { label: string; signatureAgent?: ComponentDescriptor; signatureAgentKey?: string } | undefined {
  let inputs: ReturnType<typeof parseDictionary>;
  try {
    inputs = parseDictionary(header);
  } catch {
    return undefined;
  }
  for (const [label, member] of inputs) {
    if (!isInnerList(member) || member[1].get('tag') !== WEB_BOT_AUTH.tag) continue;
    const covered = (member as InnerList)[0].find(([name]) => name === 'signature-agent');
    if (covered === undefined) return { label };
    const key = covered[1].get('key');
    const signatureAgentKey = typeof key === 'string' ? key : undefined;
    return {
      label,
      signatureAgent: component('signature-agent', signatureAgentKey === undefined ? {} : { key: signatureAgentKey }),
      ...(signatureAgentKey === undefined ? {} : { signatureAgentKey }),
    };
  }
  return undefined;
}
