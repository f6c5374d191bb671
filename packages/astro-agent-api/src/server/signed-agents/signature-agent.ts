import { isInnerList, parseDictionary, parseItem } from 'structured-headers';
import { WEB_BOT_AUTH } from '../../contract/identity-contract.ts';

/** How a `Signature-Agent` member's URL leads to keys (draft-ietf-webbotauth-httpsig-protocol, Key Distribution and Discovery). */
export type KeySourceType = (typeof WEB_BOT_AUTH.keySourceTypes)[number];

/** Who a Web Bot Auth signature says signed it, and where its keys are. */
export interface SignatureAgent {
  /**
   * Its identifier here (its quota's key, its `trusted` entry, its traffic family): the origin of a
   * `directory`, else the URL of its JWK Set or metadata document without query or fragment, as the
   * draft makes the URL the verifier resolved the identifier.
   */
  id: string;
  type: KeySourceType;
  /** What to fetch: the directory's well-known URL, or the member's URL as sent. */
  url: URL;
}

/** A Signature-Agent that leads to no keys: `invalid` when it is malformed, `unverified` when this server cannot follow it. */
export interface SignatureAgentProblem {
  outcome: 'invalid' | 'unverified';
  reason: string;
}

/**
 * The agent a signature names in `Signature-Agent` (draft-ietf-webbotauth-httpsig-protocol):
 * - a Dictionary whose member the signature covers as `"signature-agent";key="<member>"`, a string
 *   URL with a `type` token: `directory` (the default; the value is the agent's origin, whose
 *   well-known directory holds its keys), `jwks_uri` (the value is a JWK Set) or `cimd` (the value is
 *   an OAuth Client ID Metadata Document, whose `jwks` or `jwks_uri` holds them); a type this server
 *   does not know is ignored, as the draft asks;
 * - the legacy forms, still sent (npm web-bot-auth 0.1.3, ChatGPT's agent): one string item covered as
 *   `"signature-agent"`, or a Dictionary of one member covered whole; both read as a `directory`.
 * A `directory` value is an origin (a `/` path allowed) or, as earlier drafts wrote it, the URL of its
 * directory. An http URL is read too: fetching its keys is refused unless the site lists the agent (a
 * local or test agent).
 */
export function parseSignatureAgent(
  header: string,
  coveredKey: string | undefined,
): { agent: SignatureAgent } | SignatureAgentProblem {
  let value: unknown;
  let type: unknown;
  try {
    // A string Item starts with its quote and a Dictionary never does: each form is parsed as what it
    // is, without a failed parse first (a thrown parse error costs more than the rest of the reading).
    if (coveredKey === undefined && header.trimStart().startsWith('"')) {
      [value] = parseItem(header);
    } else {
      const dictionary = parseDictionary(header);
      const member =
        coveredKey === undefined
          ? dictionary.size === 1
            ? [...dictionary.values()][0]
            : undefined
          : dictionary.get(coveredKey);
      if (member === undefined || isInnerList(member))
        return { outcome: 'invalid', reason: 'no Signature-Agent member the signature covers' };
      [value] = member;
      type = member[1].get('type');
    }
  } catch {
    return { outcome: 'invalid', reason: 'Signature-Agent is not a structured field' };
  }
  const kind = type === undefined ? 'directory' : String(type);
  if (!(WEB_BOT_AUTH.keySourceTypes as readonly string[]).includes(kind))
    return { outcome: 'unverified', reason: 'Signature-Agent type not supported' };
  if (typeof value !== 'string' || !URL.canParse(value))
    return { outcome: 'invalid', reason: 'Signature-Agent is not a URL' };
  const url = new URL(value);
  if (!/^https?:$/.test(url.protocol) || url.username !== '' || url.password !== '')
    return { outcome: 'invalid', reason: 'Signature-Agent is not an https URL' };
  if (kind !== 'directory') {
    const id = new URL(url.pathname, url.origin).href;
    return { agent: { id, type: kind as KeySourceType, url } };
  }
  if ((url.pathname !== '/' && url.pathname !== WEB_BOT_AUTH.directoryPath) || url.search !== '')
    return { outcome: 'invalid', reason: 'a directory Signature-Agent is not an origin' };
  return {
    agent: {
      id: url.origin,
      type: 'directory',
      url: new URL(WEB_BOT_AUTH.directoryPath, url.origin),
    },
  };
}
