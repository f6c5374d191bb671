import { isInnerList, parseDictionary, parseItem } from 'structured-headers';
import { WEB_BOT_AUTH } from '../../identity-contract.ts';

/** Who a Web Bot Auth signature says signed it: the agent's origin, its identity here, and where its keys are. */
export interface SignatureAgent {
  origin: string;
  directory: URL;
}

/**
 * The agent a signature names in `Signature-Agent`, in both forms seen in the wild:
 * - draft -00 (what ChatGPT's agent sends): one sf-string item, `Signature-Agent: "https://chatgpt.com"`,
 *   covered as `"signature-agent"`;
 * - draft -01: a Dictionary, `Signature-Agent: sig1="https://agent.example"`, whose member the
 *   signature covers as `"signature-agent";key="sig1"`; covered without `key`, a dictionary of one
 *   member names that member.
 * The value is the agent's origin, or the URL of its directory there (`WEB_BOT_AUTH.directoryPath`);
 * any other path, type parameter or scheme names nothing this server reads. Undefined when the header
 * names no agent usable here.
 */
export function parseSignatureAgent(header: string, coveredKey: string | undefined): SignatureAgent | undefined {
  let value: unknown;
  let type: unknown;
  try {
    // A string Item starts with its quote and a Dictionary never does: each form is parsed as what it
    // is, without a failed parse first (a thrown parse error costs more than the rest of the reading).
    if (coveredKey === undefined && header.trimStart().startsWith('"')) {
      [value] = parseItem(header);
    } else {
      const dictionary = parseDictionary(header);
      const member = coveredKey === undefined ? (dictionary.size === 1 ? [...dictionary.values()][0] : undefined) : dictionary.get(coveredKey);
      if (member === undefined || isInnerList(member)) return undefined;
      [value] = member;
      type = member[1].get('type');
    }
  } catch {
    return undefined;
  }
  if (typeof value !== 'string' || (type !== undefined && String(type) !== 'directory') || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== WEB_BOT_AUTH.directoryPath) || url.search !== '') return undefined;
  return { origin: url.origin, directory: new URL(WEB_BOT_AUTH.directoryPath, url.origin) };
}
