import type { z } from 'zod';

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
