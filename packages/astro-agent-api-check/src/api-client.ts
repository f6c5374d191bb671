import type { CheckContext } from './check-context.ts';
import { parseJson, type ApiFacts, type Json } from './discover-site.ts';
import type { HttpAnswer } from './site-http.ts';

export interface ApiAnswer extends HttpAnswer {
  json: Json | undefined;
}

/** An operation of openapi.json by its operationId: its method, its path and the description of it. */
export function findOperation(
  api: ApiFacts,
  operationId: string,
): { method: string; path: string; operation: Json } | undefined {
  for (const [path, item] of Object.entries((api.openapi.paths ?? {}) as Json)) {
    for (const [method, operation] of Object.entries(item as Json))
      if (operation?.operationId === operationId)
        return { method: method.toUpperCase(), path, operation };
  }
  return undefined;
}

/** The published URL of an operation with its query parameters. */
export function operationUrl(
  api: ApiFacts,
  operationId: string,
  parameters: Record<string, string> = {},
): string {
  const found = findOperation(api, operationId);
  const server = String(api.openapi.servers?.[0]?.url ?? '').replace(/\/+$/, '');
  const query = new URLSearchParams(parameters).toString();
  return `${server}${found?.path ?? `/${operationId}`}${query ? `?${query}` : ''}`;
}

/** Calls an operation afresh (API answers count against a quota: never from the run's cache), with a bearer token if given. */
export async function callApi(
  context: CheckContext,
  api: ApiFacts,
  operationId: string,
  parameters: Record<string, string> = {},
  token?: string,
): Promise<ApiAnswer> {
  const answer = await context.http.fetch(operationUrl(api, operationId, parameters), {
    fresh: true,
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  return { ...answer, json: parseJson(answer.text) };
}

/** A words to search for: --query, else the example openapi.json gives for search_pages' query. */
export function searchQuery(context: CheckContext, api: ApiFacts): string | undefined {
  if (context.options.query) return context.options.query;
  const parameters = (findOperation(api, 'search_pages')?.operation.parameters ?? []) as Json[];
  const example = parameters.find((parameter) => parameter.name === 'query')?.example;
  if (typeof example === 'string' && example.length >= 2) return example;
  const firstTitle = context.site.llms?.links[0]?.text;
  return (
    firstTitle
      ?.split(/\s+/)
      .filter((word) => word.length >= 4)
      .slice(0, 2)
      .join(' ') || undefined
  );
}
