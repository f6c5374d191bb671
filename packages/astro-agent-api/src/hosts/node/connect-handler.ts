import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalizePath } from '../../server/canonical-path.ts';
import { FORBIDDEN_METHODS, forbiddenMethodError } from '../../server/check-method.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';
import { checkMessage } from './check-message.ts';
import { send, targetPathOf, toRequest } from './node-messages.ts';
import { createCompressedPageServer, type CompressedPageServer } from './serve-compressed-page.ts';

/** A Connect-style handler: Express, Fastify (through @fastify/middie), Vite's dev server and node:http can all mount it. */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * The agent front as a node:http handler: it converts the request, asks the runtime once
 * (AgentApi.answer) and writes its answer; a request that is the site's goes on to `next` with
 * its page's headers already set, and is reported once sent. With `servePages`, a prerendered HTML
 * page of the current build's public folder goes out compressed to a client that accepts it, before `next`.
 */
export function createNodeHandler(api: AgentApi, site: { servePages?: boolean } = {}): NodeHandler {
  const servePage = site.servePages
    ? createCompressedPageServer(() => api.currentBuild())
    : undefined;
  return (req, res, next) => {
    const pathname = canonicalizePath(targetPathOf(req));
    const refusal = checkMessage(req);
    if (refusal) return void send(res, api.renderRefusal(pathname, refusal));
    const toSite =
      next ??
      (() => res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found'));
    const method = req.method ?? 'GET';
    // A target that names no path (`OPTIONS *`, an authority) is the site's, but for a method it cannot take.
    if (pathname === undefined) {
      const refused = forbiddenMethodError(method);
      return void (refused ? send(res, api.renderRefusal(undefined, refused)) : toSite());
    }
    answer(api, req, res, { pathname, method, servePage, toSite }).catch(() => res.destroy());
  };
}

async function answer(
  api: AgentApi,
  req: IncomingMessage,
  res: ServerResponse,
  {
    pathname,
    method,
    servePage,
    toSite,
  }: { pathname: string; method: string; servePage?: CompressedPageServer; toSite: () => void },
): Promise<void> {
  const request = toRequest(req, pathname);
  const context = {
    clientAddress: req.socket.remoteAddress ?? '',
    ...(FORBIDDEN_METHODS.has(method) ? { method } : {}),
  };
  const answered = await api.answer(request, context);
  if (answered.kind === 'response') return send(res, answered.response);
  if (answered.kind === 'site') return toSite();
  for (const [name, value] of Object.entries(answered.headers)) res.setHeader(name, value);
  res.once('finish', () => answered.sent(res.statusCode));
  // A page that cannot be read compressed is the static server's to answer.
  const page = await servePage?.(request, pathname).catch(() => undefined);
  if (!page) return toSite();
  // The page's own Vary (Accept: its Markdown twin) is already set on `res`; both must be kept.
  const vary = res.getHeader('vary');
  const own = page.headers.get('vary');
  if (vary !== undefined) page.headers.set('Vary', own ? `${String(vary)}, ${own}` : String(vary));
  return send(res, page);
}
