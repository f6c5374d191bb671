/** docs/contract.md §7 — the versions the service publishes and the notice it gives before withdrawing one. */

/** Contract version published in openapi.json and the MCP server cards. */
export const CONTRACT_VERSION = '1.0.0';

/** Value of the `API-Version` header of every answer. */
export const API_VERSION = '1';

/** A withdrawn version keeps answering at least this many days after the withdrawal is announced. */
export const DEPRECATION_NOTICE_DAYS = 90;

/**
 * The headers of every answer of a version being withdrawn (the `deprecation` option): RFC 9745 §2
 * `Deprecation` (a structured date), RFC 8594 §3 `Sunset` (an HTTP-date) and RFC 9745 §3 `Link` to the policy.
 */
export function buildDeprecationHeaders(
  deprecation: { announced: string; sunset: string },
  policyUrl: string,
): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(Date.parse(deprecation.announced) / 1000)}`,
    Sunset: new Date(Date.parse(deprecation.sunset)).toUTCString(),
    Link: `<${policyUrl}>; rel="deprecation"`,
  };
}
