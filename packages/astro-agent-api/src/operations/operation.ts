import type { z } from 'zod';
import type { ContentSnapshot } from '../content/content-model.ts';
import type { Scope } from '../contract/oauth-contract.ts';

/** The public operations' names: the REST path segment, the MCP tool name and how the documents refer to each. */
export const OPERATION_NAMES = {
  search: 'search_pages',
  read: 'read_page',
  company: 'get_company_info',
  quota: 'get_quota',
} as const;

/** The operations that documents and prompts name by their role, found by name rather than by position. */
export function findOperationRoles<T extends ToolDescription>(
  operations: readonly T[],
): { search: T; read: T; company: T | undefined } {
  const find = (name: string) => operations.find((operation) => operation.name === name);
  const search = find(OPERATION_NAMES.search);
  const read = find(OPERATION_NAMES.read);
  if (search === undefined || read === undefined)
    throw new Error('createOperations always offers search_pages and read_page.');
  return { search, read, company: find(OPERATION_NAMES.company) };
}

/**
 * One description per MCP tool: the tool, the server card and agents.md are derived from it. Every
 * operation is one (OperationDescription); ChatGPT's `search` and `fetch` are tools only.
 */
export interface ToolDescription {
  name: string;
  /** How the pipeline serves it: what it needs of the caller, what it costs, how its answers are cached. */
  policy: OperationPolicy;
  title: string;
  /** Tells an agent what it is for and when to use it, in English like the rest of the contract. */
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  /**
   * The output field that is the text a model reads (read_page's `markdown`): an MCP result carries it
   * once, as its text content after a short YAML front matter of the other fields (server/mcp/tools.ts),
   * and `structuredContent` carries the other fields, rather than the whole answer twice (as JSON text
   * and as structured content, which some clients both hand their model). Without it, the text is the
   * answer's JSON.
   */
  textField?: string;
}

/**
 * One description per operation: the REST route, the MCP tool, openapi.json and agents.md are all
 * derived from it.
 */
export interface OperationDescription extends ToolDescription {
  /** Path under the API base path. */
  path: `/${string}`;
}

/**
 * What differs from one operation to another for the request pipeline (server/), declared by each
 * operation next to its schemas so that the pipeline has no case per operation.
 */
export interface OperationPolicy {
  /** Scope a bearer token needs to call it (docs/contract.md §4). */
  scope: Scope;
  /** `required`: an anonymous caller gets 401; `optional`: the same answer without a token, a token only raises the quota. */
  token: 'required' | 'optional';
  /** `count`: each call uses one request of the caller's quota; `peek`: reads the caller's window without using it. */
  quota: 'count' | 'peek';
  /**
   * `build`: the answer depends only on the input and the build, so it carries a strong ETag and a
   * shared cache may keep it a minute; `caller`: it depends on who calls and is never stored.
   */
  cache: 'build' | 'caller';
}

/** What a call was about, for whoever counts traffic: the words searched and the results found, or the page read. */
export interface CallFacts {
  query?: string;
  /** The facet filters of a search (name → value), only those that narrow it. */
  filters?: Record<string, string>;
  /** Results in the answer. */
  results?: number;
  /** True when the answer has a next page: the query found more than `results`. */
  more?: boolean;
  /** Canonical URL of the page the call answered with. */
  page?: string;
}

/** Who calls, as an operation needs to know it (the server's Caller satisfies it). */
export interface CallerInfo {
  /** The client_id; a signed agent's origin; or the client's network for an anonymous caller. */
  clientId: string;
  scopes: Scope[];
  /** No bearer token was sent. */
  anonymous: boolean;
  /** Set when a Web Bot Auth signature proved which agent calls: its identifier (an origin, or the URL of its keys). */
  agent?: { id: string };
  /** What a Web Bot Auth signature on the request came to (server/signed-agents/): verified, invalid or unverified, and why. */
  signature?: { outcome: 'verified' | 'invalid' | 'unverified'; reason?: string };
}

/** The caller's rate-limit window, read without counting a request. */
export interface QuotaInfo {
  /** Name of the caller's rate-limit policy (the `policies` option). */
  policy: string;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
  used: number;
}

export interface OperationContext {
  content: ContentSnapshot;
  caller: CallerInfo;
  readQuota(): Promise<QuotaInfo>;
}

/** A tool's description with its handler: a plain function over content and store, no HTTP. */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType>
  extends ToolDescription {
  input: I;
  output: O;
  handle(input: z.output<I>, context: OperationContext): Promise<z.output<O>>;
  /**
   * For answers that are few per build (one per page, one per section): the thing an input names,
   * e.g. the page `url` resolves to. The pipeline serializes such an answer once per build under this
   * key; undefined means "not one of those" (e.g. an unknown page).
   */
  buildKey?(input: z.output<I>, content: ContentSnapshot): string | undefined;
  /**
   * For answers that are many per build but often asked again (a search): what makes one answer
   * differ from another. The pipeline keeps the latest ones in a smaller memo of their own.
   */
  recentKey?(input: z.output<I>): string;
  /** The facts of a successful call that traffic counting records (docs/contract.md §1). */
  describeCall?(input: z.output<I>, output: z.output<O>): CallFacts;
}

/** An operation: a tool that is also a REST route. */
export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType>
  extends Tool<I, O>,
    OperationDescription {
  input: I;
  output: O;
}
