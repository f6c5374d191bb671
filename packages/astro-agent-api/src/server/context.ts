/** What the transport (Astro endpoint or the node front) knows about a request besides the Request itself. */
export interface RequestContext {
  /** Address of the TCP peer (the socket), before any proxy header is considered. */
  clientAddress: string;
}

/** A web-standard handler: the shape of every route of the runtime. */
export type Handler = (request: Request, context: RequestContext) => Promise<Response>;
