/**
 * Where the build's middleware (routes/prerender-capture-middleware.ts) hands each page Astro
 * prerenders: a function the integration sets on `globalThis` for the time of `astro build`
 * (render-time-conversion.ts). The prerender runs the middleware in the integration's own process; a
 * prerender that runs elsewhere (another runtime) finds no function there and hands nothing over.
 */
export const PRERENDERED_PAGE_SINK = Symbol.for('astro-agent-api.prerendered-page');

/** Takes one prerendered HTML page: the path Astro rendered it at, as in the request URL, and its HTML as written. */
export type PrerenderedPageSink = (renderPath: string, html: string) => void;

/** The sink of the build in progress in this process, if any. */
export function findPrerenderedPageSink(): PrerenderedPageSink | undefined {
  return (globalThis as { [PRERENDERED_PAGE_SINK]?: PrerenderedPageSink })[PRERENDERED_PAGE_SINK];
}

/** Sets (or, with `undefined`, removes) the sink of this process. */
export function setPrerenderedPageSink(sink: PrerenderedPageSink | undefined): void {
  const slot = globalThis as { [PRERENDERED_PAGE_SINK]?: PrerenderedPageSink };
  if (sink) slot[PRERENDERED_PAGE_SINK] = sink;
  else delete slot[PRERENDERED_PAGE_SINK];
}
