import type { RequestContext } from './context.ts';
import type { AgentApi, SitePage } from './create-agent-api.ts';

/** The site behind the front, as a web-standard handler (a Worker's assets and Astro, Astro's `next()`), given its page's answer. */
export type SiteHandler = (page: SitePage | undefined) => Promise<Response>;

export interface AgentFront {
  /**
   * The front before a web-standard site: the runtime's answer (AgentApi.answer), else the site's,
   * its HTML page with its headers and reported. Without a site (an injected endpoint, which Astro
   * only routes agent paths to), the runtime answers the path, a JSON 404 when no route claims it.
   */
  fetch(request: Request, context: RequestContext, site?: SiteHandler): Promise<Response>;
  /** The llms.txt directive of a page `fetch` did not see (AgentApi.pageDirective). */
  pageDirective(pathname: string): Promise<string | undefined>;
}

/**
 * The runtime's one answer as a web-standard Response, for every host whose site is a fetch handler
 * (a Worker, a Vercel or Netlify function, Astro's endpoints and middleware): I/O only, the decisions
 * are the runtime's.
 */
export function createAgentFront(api: AgentApi): AgentFront {
  return {
    pageDirective: (pathname) => api.pageDirective(pathname),
    async fetch(request, context, site) {
      if (!site) return api.handle(request, context);
      const answer = await api.answer(request, context);
      if (answer.kind === 'response') return answer.response;
      if (answer.kind === 'site') return site(undefined);
      const page = withPageHeaders(await site(answer), answer);
      answer.sent(page.status);
      return page;
    },
  };
}

/** The site's answer with the headers of its page, when it is an HTML page. */
function withPageHeaders(response: Response, page: SitePage): Response {
  if (!response.headers.get('Content-Type')?.startsWith('text/html')) return response;
  // A Response of the site may have immutable headers (an asset's): the page goes out as a copy with its own.
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(page.headers)) copy.headers.set(name, value);
  return copy;
}
