import { ApiError } from '../api-error.ts';
import { canonicalizePath } from './canonical-path.ts';
import type { RequestContext } from './context.ts';
import type { AgentApi } from './create-agent-api.ts';

/**
 * Methods the Fetch API refuses to put in a Request (Fetch §2.2.1 forbidden methods): a host that
 * receives one makes the Request a bodiless GET and passes the method as `RequestContext.method`.
 */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A request for the site: the headers its HTML page goes out with, and the report of the page once answered. */
export interface SitePage {
  headers: Readonly<Record<string, string>>;
  /** Reports the page the site answered, with its status (traffic counting keeps those of known agents). */
  sent(status: number): void;
}

/** The site behind the front, as a web-standard handler (a Worker's assets and Astro, Astro's `next()`). */
export type SiteHandler = () => Promise<Response>;

export interface AgentFront {
  /**
   * The decision: an agent path routed and answered, a page asked for as Markdown answered with its
   * twin, a method no handler can take refused; else the request is the site's, with what its page gets.
   * For a host that hands a request on to the site itself (a node:http `next`).
   */
  answer(request: Request, context: RequestContext): Promise<Response | SitePage>;
  /**
   * The whole front before a web-standard site: its HTML pages go out with their headers and are
   * reported. Without a site (an injected endpoint, which Astro only routes agent paths to), a path the
   * runtime does not route gets the runtime's JSON 404.
   */
  fetch(request: Request, context: RequestContext, site?: SiteHandler): Promise<Response>;
  /** The answer to a method the Fetch API cannot carry, on a target that names no path (`TRACE *`); undefined for any other. */
  refuseMethod(method: string): Response | undefined;
  /** The llms.txt directive for a page the site renders on demand (agent-directives.ts); undefined before a build or when the option turns it off. */
  pageDirective(pathname: string): Promise<string | undefined>;
}

export interface AgentFrontOptions {
  /** A public folder only the host reads (a Worker's runtime files among its assets): a 404 for anyone else. */
  privateFolder?: string;
}

const NOT_FOUND = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
/** A request the site answers as it is: neither a GET nor a HEAD, so no page. */
const AS_IT_IS: SitePage = { headers: {}, sent() {} };

/**
 * The one front every host calls (Node's node:http layer, a Worker, Astro's injected endpoints and
 * middleware): route → method → handle for the agent paths, Markdown negotiation for a page, else the
 * site with its page's `Link` header, and the traffic counted. A host only converts its I/O and names
 * the client address; the decisions are made here, once.
 */
export function createAgentFront(api: AgentApi, options: AgentFrontOptions = {}): AgentFront {
  const privatePrefix = options.privateFolder === undefined ? undefined : `/${options.privateFolder}/`;

  function refuseMethod(method: string): Response | undefined {
    if (!FORBIDDEN_METHODS.has(method)) return undefined;
    return api.renderRefusal(
      undefined,
      new ApiError(405, 'method_not_allowed', `The method ${method} is not answered by this server.`, {
        hint: 'Use GET for pages and documents; the agent endpoints list their methods in /openapi.json.',
        headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
      }),
    );
  }

  async function decide(request: Request, pathname: string, context: RequestContext): Promise<Response | SitePage> {
    if (privatePrefix !== undefined && pathname.startsWith(privatePrefix)) return NOT_FOUND();
    await api.prepare();
    // Routed here, once: the runtime answers with the route found.
    const routed = api.route(pathname);
    if (routed) return api.handle(request, context, routed);
    // The site cannot take these either: they would reach it as a Request it cannot make.
    const refused = context.method === undefined ? undefined : refuseMethod(context.method);
    if (refused) return refused;
    if (request.method !== 'GET' && request.method !== 'HEAD') return AS_IT_IS;
    const markdown = await api.negotiatePage(request);
    if (markdown) return markdown;
    return { headers: await api.pageHeaders(pathname), sent: (status) => api.reportPage(request, status) };
  }

  async function answer(request: Request, context: RequestContext): Promise<Response | SitePage> {
    // The path a router compares; a Request's URL always has one.
    const pathname = canonicalizePath(new URL(request.url).pathname)!;
    try {
      return await decide(request, pathname, context);
    } catch (error) {
      // Whatever failed, the client gets a JSON answer in the shape of its route, never a host's error page.
      return api.renderRefusal(pathname, error);
    }
  }

  return {
    answer,
    refuseMethod,
    pageDirective: (pathname) => api.pageDirective(pathname),
    async fetch(request, context, site) {
      const answered = await answer(request, context);
      if (answered instanceof Response) return answered;
      if (!site) return api.handle(request, context);
      if (answered === AS_IT_IS) return site();
      const page = withPageHeaders(await site(), answered);
      answered.sent(page.status);
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
