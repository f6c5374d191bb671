/** docs/contract.md §7 — the versions the service publishes and the notice it gives before withdrawing one. */

/** Contract version published in openapi.json and the MCP server cards. */
export const CONTRACT_VERSION = '1.0.0';

/** Value of the `API-Version` header of every answer. */
export const API_VERSION = '1';

/** A withdrawn version keeps answering at least this many days after the withdrawal is announced. */
export const DEPRECATION_NOTICE_DAYS = 90;
