import { ApiError } from '../api-error.ts';
import type { Handler } from './context.ts';
import type { Outcome } from './outcome.ts';
import type { ErrorShape } from './respond.ts';

/** One path of the agent surface: what answers it and the rules the steps before it apply. */
export interface Route {
  surface: Outcome['surface'];
  /** Methods it answers besides OPTIONS (HEAD wherever GET is): any other gets 405 with Allow. */
  methods: readonly ('GET' | 'POST')[];
  /** How to call it, in one line: the hint of a 405. */
  usage: string;
  errors: ErrorShape;
  /** Who may call from a browser: any origin (credentials never travel in cookies), or only the site's origins (see check-origin.ts). */
  origins: 'any' | 'site';
  handle: Handler;
}

export type RouteTable = ReadonlyMap<string, Route>;

/** The route step: the route of a canonical path, with or without its trailing slash. */
export function findRoute(routes: RouteTable, pathname: string): Route | undefined {
  return routes.get(pathname) ?? (pathname.length > 1 && pathname.endsWith('/') ? routes.get(pathname.slice(0, -1)) : undefined);
}

/** What a path without a route gets: under the API base path, the list of operations; elsewhere, where to start. */
export function notFoundError(pathname: string, api: { basePath: string; operations: string; openapi: string }): ApiError {
  if (pathname === api.basePath || pathname.startsWith(`${api.basePath}/`)) {
    return new ApiError(404, 'unknown_operation', 'There is no such operation in this API.', {
      hint: `Operations: ${api.operations}. See ${api.openapi}.`,
    });
  }
  return new ApiError(404, 'not_found', `Nothing is published at ${pathname}.`, {
    hint: 'Start from /agents.md or /openapi.json, which list every endpoint.',
  });
}
