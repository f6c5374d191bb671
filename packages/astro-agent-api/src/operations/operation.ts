import type { z } from 'zod';
import type { ContentSnapshot } from '../content/content-model.ts';

export type Scope = 'content:read' | 'quota:read';
export const SCOPES: readonly Scope[] = ['content:read', 'quota:read'];

/**
 * One description per operation: the REST route, the MCP tool, openapi.json and agents.md are all
 * derived from it.
 */
export interface OperationDescription {
  name: string;
  /** Path under the API base path. */
  path: `/${string}`;
  /** Scope a bearer token needs to call it. */
  scope: Scope;
  title: string;
  /** Spanish and English: tells an agent what it is for and when to use it. */
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
}

/** Who calls, as an operation needs to know it (the server's Caller satisfies it). */
export interface CallerInfo {
  /** The client_id, or the client address for an anonymous caller. */
  clientId: string;
  scopes: Scope[];
  anonymous: boolean;
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

/** An operation's description with its handler: a plain function over content and store, no HTTP. */
export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType>
  extends OperationDescription {
  input: I;
  output: O;
  handle(input: z.output<I>, context: OperationContext): Promise<z.output<O>>;
}
