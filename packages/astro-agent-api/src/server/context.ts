import type { Outcome } from '../operations/outcome.ts';

/** What the transport (Astro endpoint or the node front) knows about a request besides the Request itself. */
export interface RequestContext {
  /** Address of the TCP peer (the socket), before any proxy header is considered. */
  clientAddress: string;
  /**
   * The method as received when the Fetch API cannot carry it (CONNECT, TRACE, TRACK): the request
   * then arrives as a bodiless GET, and the method step refuses it before anything reads the request.
   */
  method?: string;
}

/** A web-standard handler: the shape of every route of the runtime. It notes what it did on `outcome`. */
export type Handler = (
  request: Request,
  context: RequestContext,
  outcome: Outcome,
) => Promise<Response>;
