import {
  component,
  isSignatureError,
  verifySignature,
  webcrypto,
  type ComponentDescriptor,
} from 'http-message-sig';
import { isInnerList, parseDictionary, type InnerList } from 'structured-headers';
import { CLOCK_SKEW_SECONDS, WEB_BOT_AUTH } from '../../contract/identity-contract.ts';
import type { AgentApiOptions } from '../../options.ts';
import type { Store } from '../../store/store.ts';
import type { DocumentCache } from '../outbound/document-cache.ts';
import type { AgentMetadataKeys, KeyDirectory } from './key-directory.ts';
import { parseSignatureAgent, type SignatureAgent } from './signature-agent.ts';

/** A rate-limit policy: its name in the RateLimit headers and its requests per window. */
export interface NamedPolicy {
  name: string;
  quota: number;
}

/** An agent whose signature was verified, and the policy the site gives it. */
export interface SignedAgent {
  /** Its identifier (signature-agent.ts): its identity here (Quota.client_id, the traffic report). */
  id: string;
  policy: NamedPolicy;
}

/**
 * What a Web Bot Auth signature came to, in the draft's three outcomes (Deployment Guidance, Verifier
 * Outcomes): `verified`, the agent it proves; `invalid`, a signature, covered component, key or
 * freshness check failed; `unverified`, this server could not decide (keys out of reach, a key it does
 * not know, a Signature-Agent type it does not follow, an agent it does not check). Only `verified`
 * changes anything: the other two are anonymous requests, never errors.
 */
export type SignatureCheck =
  | { outcome: 'verified'; agent: SignedAgent }
  | { outcome: 'invalid' | 'unverified'; reason: string };

/** Reads a request's Web Bot Auth signature; undefined when it carries none (no signature tagged `web-bot-auth`). */
export type SignedAgentVerifier = (request: Request) => Promise<SignatureCheck | undefined>;

/**
 * Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol) over RFC 9421, verified with Cloudflare's
 * http-message-sig: the signature tagged `web-bot-auth`, Ed25519 only, covering `@authority` or
 * `@target-uri` (this site's, from `site`: a signature made for another host proves nothing here) and
 * the `Signature-Agent` member that names it (`signature-agent.ts`), with `created`, `expires` and
 * `keyid`, made at most WEB_BOT_AUTH.maxAgeSeconds ago (both within CLOCK_SKEW_SECONDS); the key is
 * the one whose RFC 7638 thumbprint is the `keyid`, in the agent's directory, JWK Set or metadata
 * document's keys (fetched with no redirect followed, a failure kept at most
 * OUTBOUND_FETCH.failureCacheSeconds). Each signature is taken once (its nonce, else its bytes,
 * claimed in the store, so a replay is refused on every instance). Which agents count as themselves
 * is the `signedAgents` option's: an agent that would be counted as anonymous anyway is not verified
 * at all (`unverified`).
 */
export function createSignedAgentVerifier(deps: {
  store: Store;
  /** Key directories and JWK Sets, by URL. */
  directories: DocumentCache<KeyDirectory>;
  /** Client ID Metadata Documents of agents (type `cimd`), by URL; without it, such agents are unverified. */
  metadataDocuments?: DocumentCache<AgentMetadataKeys>;
  /** This site's origin: `@authority` is its host. */
  siteOrigin: string;
  options: AgentApiOptions['signedAgents'];
  now?: () => number;
}): SignedAgentVerifier {
  const now = deps.now ?? Date.now;
  const { policy, trusted, unlisted } = deps.options;

  function policyOf(id: string): NamedPolicy | undefined {
    const override = trusted[id];
    if (override)
      return { name: override.name ?? policy.name, quota: override.quota ?? policy.quota };
    return unlisted === 'signed' ? policy : undefined;
  }

  async function keysOf(agent: SignatureAgent, allowPrivate: boolean): Promise<KeyDirectory> {
    if (agent.type !== 'cimd') return deps.directories.get(agent.url, { allowPrivate });
    if (!deps.metadataDocuments) throw new Error('metadata documents are not read here');
    const document = await deps.metadataDocuments.get(agent.url, { allowPrivate });
    return 'keys' in document
      ? document.keys
      : deps.directories.get(document.jwksUri, { allowPrivate });
  }

  return async (request) => {
    const signatureInput = request.headers.get('signature-input');
    if (signatureInput === null || !request.headers.has('signature')) return undefined;
    const candidate = findWebBotAuthSignature(signatureInput);
    if (candidate === undefined) return undefined;
    // The header names the keys: a signature that does not cover it could be pointed at anyone's.
    const signatureAgentHeader = request.headers.get('signature-agent');
    if (signatureAgentHeader === null || candidate.signatureAgent === undefined)
      return { outcome: 'invalid', reason: 'Signature-Agent not sent or not covered' };
    const named = parseSignatureAgent(signatureAgentHeader, candidate.signatureAgentKey);
    if (!('agent' in named)) return named;
    const { agent } = named;
    const agentPolicy = policyOf(agent.id);
    if (!agentPolicy) return { outcome: 'unverified', reason: 'agent not checked by this site' };

    const at = Math.floor(now() / 1000);
    const url = new URL(request.url);
    // Why the keys could not be had, when they could not: the request is then unverified, not invalid.
    let keysProblem: string | undefined;
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
            requiredComponents: [candidate.signatureAgent],
            requiredParameters: ['created', 'expires', 'keyid'],
            maxAge: WEB_BOT_AUTH.maxAgeSeconds,
            clockSkew: CLOCK_SKEW_SECONDS,
            now: at,
            // The draft asks for one of the two: either binds the signature to this site.
            validate: ({ components }) =>
              components.some(
                (covered) => covered.name === '@authority' || covered.name === '@target-uri',
              ),
          },
          async resolveVerifier({ parameters }) {
            let keys: KeyDirectory;
            try {
              keys = await keysOf(agent, agent.id in trusted);
            } catch (error) {
              keysProblem = 'agent keys out of reach';
              throw error;
            }
            const key = keys.get(String(parameters.keyid));
            if (key === undefined) {
              keysProblem = 'keyid not among the agent keys';
              throw new Error(`no key ${String(parameters.keyid)} for ${agent.id}`);
            }
            return webcrypto.verifier(key);
          },
        },
      );
      // RFC 9421 §7.2.2: the nonce (or, without one, the signature itself) is taken once while the signature could be accepted.
      const once =
        typeof verified.parameters.nonce === 'string'
          ? `n:${verified.parameters.nonce}`
          : `s:${Buffer.from(verified.signature).toString('base64')}`;
      const acceptableUntil =
        (Number(verified.parameters.created) +
          WEB_BOT_AUTH.maxAgeSeconds +
          2 * CLOCK_SKEW_SECONDS) *
        1000;
      if (!(await deps.store.claimOnce(`web-bot-auth:${agent.id}:${once}`, acceptableUntil, now())))
        return { outcome: 'invalid', reason: 'signature already used' };
      return { outcome: 'verified', agent: { id: agent.id, policy: agentPolicy } };
    } catch (error) {
      if (keysProblem !== undefined) return { outcome: 'unverified', reason: keysProblem };
      return {
        outcome: 'invalid',
        reason: isSignatureError(error) ? error.message : 'signature not verified',
      };
    }
  };
}

/**
 * The first signature of `Signature-Input` tagged `web-bot-auth`, with how it covers `signature-agent`
 * (and the Dictionary member it names, draft -01). Other signatures a request carries (a proxy's) are
 * left alone.
 */
function findWebBotAuthSignature(
  header: string,
): { label: string; signatureAgent?: ComponentDescriptor; signatureAgentKey?: string } | undefined {
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
      signatureAgent: component(
        'signature-agent',
        signatureAgentKey === undefined ? {} : { key: signatureAgentKey },
      ),
      ...(signatureAgentKey === undefined ? {} : { signatureAgentKey }),
    };
  }
  return undefined;
}
