import {
  CLOCK_SKEW_SECONDS,
  WEB_BOT_AUTH,
  type Ipv6Prefix,
} from '../contract/identity-contract.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import {
  ASSERTION_MAX_LIFETIME_SECONDS,
  ASSERTION_SIGNING_ALGORITHMS,
  JWT_BEARER_ASSERTION_TYPE,
  PRIVATE_KEY_JWT,
} from '../contract/oauth-contract.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';

/** Who an anonymous caller is, in the words of agents.md and auth.md: its network. */
export function describeAnonymousClient(ipv6Prefix: Ipv6Prefix): string {
  return `per network: an IPv4 address, or an IPv6 /${ipv6Prefix}`;
}

/** One kind of signed agent and the policy it is counted under. */
export interface SignedAgentQuota {
  /** Who: `signed by \`https://agent.example\``. */
  who: string;
  policy: string;
  quota: number;
}

/**
 * What an agent that signs its requests (Web Bot Auth) gets here, from the `signedAgents` option: the
 * quotas of the limits tables and the paragraph agents.md and auth.md both print.
 */
export function describeSignedAgents({
  signedAgents,
}: Pick<ResolvedAgentApiOptions, 'signedAgents'>): {
  quotas: SignedAgentQuota[];
  paragraph: string;
} {
  const { policy, trusted, unlisted } = signedAgents;
  const listed = Object.entries(trusted).map(([identity, override]) => ({
    who: `signed by \`${identity}\``,
    policy: override.name ?? policy.name,
    quota: override.quota ?? policy.quota,
  }));
  const quotas = [
    ...listed,
    ...(unlisted === 'signed'
      ? [{ who: 'signed by any other agent', policy: policy.name, quota: policy.quota }]
      : []),
  ];
  const who =
    unlisted === 'signed'
      ? 'any agent with a valid signature'
      : listed.length > 0
        ? `the agents this site lists (${Object.keys(trusted)
            .map((identity) => `\`${identity}\``)
            .join(', ')}); any other signer reads as anonymous`
        : 'no agent yet: this site lists none, so a signed request reads as anonymous';
  const paragraph =
    `Agents that sign their requests with HTTP Message Signatures under Web Bot Auth (RFC 9421, draft-ietf-webbotauth-httpsig-protocol: \`Signature\`, \`Signature-Input\` tagged \`${WEB_BOT_AUTH.tag}\`, and \`Signature-Agent\`, a Dictionary member the signature covers as \`"signature-agent";key="<member>"\`, typed \`directory\` (the agent's origin, its keys in \`<origin>${WEB_BOT_AUTH.directoryPath}\`; the default, and what the legacy single string names), \`jwks_uri\` (a JWK Set) or \`cimd\` (a Client ID Metadata Document with \`jwks\` or \`jwks_uri\`)) are counted by their identity (the origin, or the URL of that JWK Set or document) instead of their address, with a quota of their own, for ${who}. ` +
    `The signature must be ${WEB_BOT_AUTH.algorithm}, cover \`@authority\` or \`@target-uri\` (this site) and its \`Signature-Agent\` member, carry \`created\`, \`expires\` and \`keyid\` (the RFC 7638 thumbprint of one of those keys), be at most ${WEB_BOT_AUTH.maxAgeSeconds} s old (${CLOCK_SKEW_SECONDS} s of clock skew allowed) and be new: each nonce is accepted once, so sign every request anew. ` +
    'Every answer says what the signature came to in `Web-Bot-Auth`: `verified` with the `agent` counted, or `invalid` or `unverified` with a `reason`. A signature that does not verify is not an error: the request is served as anonymous. A signature raises the quota only; it grants no scope.';
  return { quotas, paragraph };
}

/** How a client without a secret authenticates (RFC 7523 §2.2 and §3), for auth.md: registered with its keys or known by its document alike. */
export function describeClientAssertion(): string {
  const algorithms = ASSERTION_SIGNING_ALGORITHMS.filter((algorithm) => algorithm !== 'Ed25519');
  return (
    `A client without a secret authenticates with a JWT client assertion (RFC 7523) at the token, revocation and introspection endpoints: form fields \`client_assertion_type=${JWT_BEARER_ASSERTION_TYPE}\` and \`client_assertion\`, a JWT signed with one of its keys (${algorithms.join(', ')}; never HMAC) whose \`iss\` and \`sub\` are its client_id, \`aud\` this server's issuer or token endpoint, \`exp\` at most ${ASSERTION_MAX_LIFETIME_SECONDS} s ahead and \`jti\` new (each is accepted once). ` +
    'A secret sent for such a client is refused, as is an assertion for a client that has a secret.'
  );
}

/** How a client known by its metadata document is known, for auth.md; undefined when the site takes no documents. */
export function describeClientMetadataDocuments({
  clientMetadataDocuments,
}: Pick<ResolvedAgentApiOptions, 'clientMetadataDocuments'>): string | undefined {
  if (clientMetadataDocuments === false) return undefined;
  const where =
    clientMetadataDocuments === true
      ? 'any https URL with a path on a public host'
      : `an URL under ${clientMetadataDocuments.map((origin) => `\`${origin}\``).join(', ')}`;
  return (
    `Instead of registering, a client may use as its \`client_id\` the URL of its Client ID Metadata Document (${where}): a JSON document whose \`client_id\` is that same URL, with \`token_endpoint_auth_method\` \`${PRIVATE_KEY_JWT}\`, its public keys in \`jwks\` or \`jwks_uri\`, and no secret. ` +
    `The document is fetched when first needed and kept as its Cache-Control says; its first use counts as a registration (${LIMITS.oauth.registration.limit} ${formatPerPeriod(LIMITS.oauth.registration.windowSeconds)} per network).`
  );
}
