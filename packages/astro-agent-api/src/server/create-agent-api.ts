import type { BuildFiles } from '../content/build-files.ts';
import { WORKERS_RUNTIME_DIR } from '../content/manifest.ts';
import { createContentModel, type ContentSnapshot } from '../content/content-model.ts';
import type { Environment, EnvironmentReading } from '../environment.ts';
import { consoleLogger, type RuntimeLogger } from '../shared/logger.ts';
import { API_VERSION } from '../contract/versioning.ts';
import {
  createOutcome,
  type Outcome,
  type OutcomeListener,
  type OutcomeRecorder,
} from '../operations/outcome.ts';
import { DEFAULT_API_BASE_PATH } from '../contract/paths.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import { createDeferredStore } from '../store/deferred-store.ts';
import type { Store } from '../store/store.ts';
import { createBuildRuntime, type BuildRuntime } from './build-runtime.ts';
import { checkMethod, forbiddenMethodError } from './check-method.ts';
import { checkOrigin } from './check-origin.ts';
import { canonicalizePath } from './canonical-path.ts';
import type { RequestContext } from './context.ts';
import { createSdkLeg } from './mcp/serve-with-sdk.ts';
import type { OutboundFetch } from './outbound/fetch-document.ts';
import {
  findPageOfRequest,
  resolveRequest,
  type ResolvedRequest,
} from '../content/resolve-page.ts';
import { buildPageDirective } from '../contract/agent-directives.ts';
import { buildPageLinkHeader } from '../content/page-link-header.ts';
import { markdownResponse, negotiateTextType, type TextType } from './negotiate.ts';
import { readSettings } from './read-settings.ts';
import {
  API_HEADERS,
  renderError,
  withHeaders,
  type ErrorLogger,
  type ErrorShape,
} from './respond.ts';
import {
  buildRouteTable,
  findRoute,
  notFoundError,
  type Route,
  type RouteRule,
  type RouteTable,
} from './route-table.ts';
import { buildWebBotAuthField } from './signed-agents/report-outcome.ts';

export interface AgentApi {
  /** Loads the current build and opens the store; rejects when either fails, or when a start-time setting is invalid. */
  ready(): Promise<void>;
  /**
   * The one question a front asks, once per request: the runtime's answer (an agent path, a page asked
   * for as Markdown, a refusal), or the site's page with its headers and its report, or the site's
   * request as it is. The path is canonicalised and the page found once; nothing here throws.
   */
  answer(request: Request, context: RequestContext): Promise<Answer>;
  /** Answers an agent request, which Astro has routed here (the injected endpoints): a path no route claims is a JSON 404. */
  handle(request: Request, context: RequestContext): Promise<Response>;
  /**
   * The current build: every URL of it (its site and routing settings) and the files it is read from
   * (a host that serves the site's pages itself serves them from there); undefined before a build.
   */
  currentBuild(): Promise<CurrentBuild | undefined>;
  /**
   * The llms.txt directive of a page rendered in `astro dev` that `answer` did not see (a prerendered
   * one, after the dev server's front); a page rendered on demand gets it with its `answer`.
   */
  pageDirective(pathname: string): Promise<string | undefined>;
  /**
   * An error outside the pipeline (the transport could not parse the request, or failed around it), in
   * the shape of the route its path names; anything but an ApiError is logged and answered 500.
   */
  renderRefusal(pathname: string | undefined, error: unknown): Response;
  close(): Promise<void>;
}

/** What the runtime answers a front (AgentApi.answer). */
export type Answer = { kind: 'response'; response: Response } | SitePage | { kind: 'site' };

/** A GET or HEAD the site answers: the headers its HTML page goes out with, its llms.txt directive, and its report. */
export interface SitePage {
  kind: 'page';
  headers: Readonly<Record<string, string>>;
  /** The llms.txt directive a page rendered on demand gets (agent-directives.ts); undefined when the option turns it off or before a build. */
  directive: string | undefined;
  /** Reports the page the site answered, with its status, once sent (traffic counting keeps those of known agents). */
  sent(status: number): void;
}

/**
 * On every page of the site: no MIME sniffing of what is served (a Markdown twin or an upload taken
 * for HTML), and no full URL leaked to other sites in Referer. The Content-Security-Policy of a page
 * is the site's (Astro's `security.csp` writes it, with the hashes of its inline scripts).
 */
const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** What a host needs of the current build to serve the site beside the agent surface. */
export interface CurrentBuild {
  urls: SiteUrls;
  files: BuildFiles;
}

/** A request's place in the route table, found once from its canonical path. */
interface RoutedRequest {
  /** The build whose table routed it: a request routed before another build landed is routed again in that one. */
  build: BuildRuntime | undefined;
  /** Undefined under the API base path where no operation has that name (a JSON 404). */
  route: Route | undefined;
}

/** Until a build is loaded, the paths of the default API base path are claimed. */
const UNBUILT_TABLE = buildRouteTable({
  apiBasePath: DEFAULT_API_BASE_PATH,
  siteName: undefined,
  operations: [],
});

/** The parts of the runtime a recorder of outcomes writes with. */
export interface RecorderParts {
  /** The environment's settings (AGENT_API_ANALYTICS…), read once by the host. */
  settings: Environment;
  /** The runtime's store, opened on first use. */
  store: () => Promise<Store>;
  log: ErrorLogger;
}

/**
 * What a host gives the runtime besides its settings: what differs by platform. Every part is required,
 * none has a default: a host that leaves one out does not compile (tests/unit/host-parts.test.ts).
 */
export interface AgentApiHostParts {
  /** Where the build's files come from (content/build-files.ts). */
  files: BuildFiles;
  /**
   * Opens the store with the environment's settings, once, on first use (store/deferred-store.ts: a
   * rejection is tried again a few seconds later); never while the environment is bad.
   */
  openStore: (settings: Environment) => Promise<Store>;
  /**
   * The environment as the host read it, once, at start (environment.ts `readEnvironment`): the runtime
   * carries its settings to the store, the limits (the AGENT_API_QUOTA_* overrides) and the recorders.
   */
  environment: EnvironmentReading;
  /**
   * How documents of other hosts (agents' key directories, clients' metadata) are fetched: a fetch that
   * refuses a host name resolving to a private address when it connects, unless the site listed the origin.
   */
  fetchOutbound: OutboundFetch;
}

/** What a runtime reports to, on any platform. */
export interface AgentApiListeners {
  /** Where errors and degraded states are told: the host's logger (Astro's in `astro dev`), the console by default. */
  logger?: RuntimeLogger;
  /** Called once per answered request with what it was (outcome.ts). */
  onOutcome?: OutcomeListener;
  /**
   * Recorders of outcomes that write to the runtime's store, made with it and closed (so flushed)
   * before it is: traffic counting (analytics/traffic-recorder.ts) is attached this way by the hosts.
   */
  recorders?: readonly ((parts: RecorderParts) => OutcomeRecorder)[];
}

/** The runtime's options on any platform: the host's parts and its listeners. */
export type PortableAgentApiOptions = AgentApiHostParts & AgentApiListeners;

/**
 * The run-time surface as one web-standard handler over a build's output. This file only composes:
 * the store and the SDK leg live as long as the process; everything a build decides (routes,
 * policies, trustProxy, allowed origins, the API base path) lives in its BuildRuntime, made anew
 * when a rebuild lands. A request goes route → origin → method → the route's own steps (for an
 * operation: caller → quota → validate → operation → representation), and its outcome is reported.
 */
export function createPortableAgentApi(options: PortableAgentApiOptions): AgentApi {
  const { environment, files } = options;
  const logger = options.logger ?? consoleLogger;
  const log: ErrorLogger = (message, cause) => logger.error(message, cause);
  const { misconfigured, cause } = readSettings(environment, logger);
  const settings = environment.settings;
  const content = createContentModel({ files, logger });
  const store = createDeferredStore(
    () => (settings ? options.openStore(settings) : Promise.reject(environment.error)),
    { logger },
  );
  // Without settings (a bad environment) no build runtime is made: the agent paths all answer 503.
  const shared = settings && {
    settings,
    log,
    store,
    sdk: createSdkLeg(),
    fetchOutbound: options.fetchOutbound,
  };
  const runtimes = new WeakMap<ContentSnapshot, BuildRuntime>();
  let latest: BuildRuntime | undefined;
  // A runtime whose settings are bad counts nothing.
  const recorders = settings
    ? (options.recorders ?? []).map((create) => create({ settings, log, store: store.opened }))
    : [];
  const listeners = [
    ...recorders.map((recorder) => recorder.record),
    ...(options.onOutcome ? [options.onOutcome] : []),
  ];
  const report: OutcomeListener = (outcome) => {
    for (const listener of listeners) listener(outcome);
  };

  async function currentRuntime(): Promise<BuildRuntime> {
    if (!shared) throw misconfigured;
    const snapshot = await content.current();
    let runtime = runtimes.get(snapshot);
    if (!runtime) {
      runtime = createBuildRuntime(snapshot, shared);
      runtimes.set(snapshot, runtime);
      latest = runtime;
    }
    return runtime;
  }

  /** How errors are written on a path, before or without a route of a build (the route's own, else the API's). */
  function errorShapeOf(pathname: string | undefined): ErrorShape {
    const table: RouteTable<RouteRule<unknown>> = latest?.table ?? UNBUILT_TABLE;
    return (
      (pathname === undefined ? undefined : findRoute(table, pathname)?.route?.errors) ?? 'api'
    );
  }

  async function respond(
    request: Request,
    context: RequestContext,
    outcome: Outcome,
    routed: RoutedRequest | undefined,
  ): Promise<Response> {
    let runtime: BuildRuntime;
    try {
      runtime = await currentRuntime();
    } catch (error) {
      // No build, none that loads, or bad settings: a 503 that says which, in the shape of the path.
      return renderError(error, errorShapeOf(outcome.path), log, API_HEADERS);
    }
    // Routed by `answer` in this build's table: not routed again.
    const route =
      routed?.build === runtime ? routed.route : findRoute(runtime.table, outcome.path)?.route;
    if (!route)
      return renderError(notFoundError(outcome.path, runtime.api), 'api', log, {
        ...API_HEADERS,
        ...runtime.headers,
      });
    outcome.surface = route.surface;
    let cors: Record<string, string> = {};
    let response: Response;
    try {
      cors = checkOrigin(request, route, runtime.origins);
      response =
        checkMethod(outcome.method, route) ?? (await route.handle(request, context, outcome));
    } catch (error) {
      response = renderError(error, route.errors, log);
    }
    const signature = buildWebBotAuthField(outcome.caller);
    return withHeaders(response, {
      ...runtime.headers,
      ...cors,
      ...(signature && { 'Web-Bot-Auth': signature }),
    });
  }

  function route(pathname: string): RoutedRequest | undefined {
    if (!latest)
      return findRoute(UNBUILT_TABLE, pathname) && { build: undefined, route: undefined };
    const found = findRoute(latest.table, pathname);
    return found && { build: latest, route: found.route };
  }

  function record(outcome: Outcome, response: Response): Response {
    outcome.status = response.status;
    report(outcome);
    return response;
  }

  function renderRefusal(pathname: string | undefined, error: unknown): Response {
    return withHeaders(
      renderError(error, errorShapeOf(pathname), log),
      latest?.headers ?? { 'API-Version': API_VERSION },
    );
  }

  /** An agent path's answer, a page's twin, a refusal, or the site's; `pathname` is canonical. */
  async function decide(
    request: Request,
    pathname: string,
    context: RequestContext,
  ): Promise<Answer> {
    if (pathname.startsWith(PRIVATE_PREFIX)) return { kind: 'response', response: NOT_FOUND() };
    // A new instance (a cold function or isolate) loads its build first, so that its table knows the paths.
    if (!latest) await currentRuntime().catch(() => {});
    const routed = route(pathname);
    if (routed) {
      const outcome = createOutcome(request, pathname, context.method ?? request.method);
      return {
        kind: 'response',
        response: record(outcome, await respond(request, context, outcome, routed)),
      };
    }
    // The site cannot take these either: they would reach it as a Request it cannot make.
    const forbidden =
      context.method === undefined ? undefined : forbiddenMethodError(context.method);
    if (forbidden) return { kind: 'response', response: renderRefusal(undefined, forbidden) };
    if (request.method !== 'GET' && request.method !== 'HEAD') return SITE;
    const snapshot = await content.current().catch(() => undefined);
    if (!snapshot) return { ...NOT_CONTENT, directive: undefined };
    // The page is found once: an address the site redirects answers the twin of the page it leads to.
    const found = resolveRequest(snapshot.pages, pathname);
    // The twin's own address is Markdown whatever is accepted; a page's address, what Accept ranks first.
    const type =
      found && (found.twin ? 'text/markdown' : negotiateTextType(request.headers.get('Accept')));
    if (found && type)
      return { kind: 'response', response: twinOf(request, pathname, found, snapshot, type) };
    const page = found && found.redirectedFrom === undefined ? found.page : undefined;
    const directive = buildPageDirective(
      snapshot.manifest.options.directives,
      snapshot.urls,
      page?.path,
    );
    if (!page) return { ...NOT_CONTENT, directive };
    return {
      kind: 'page',
      headers: {
        ...PAGE_SECURITY_HEADERS,
        Link: buildPageLinkHeader(page, snapshot.urls),
        Vary: 'Accept',
      },
      directive,
      sent(status) {
        const outcome = createOutcome(request, pathname, request.method);
        outcome.surface = 'page';
        outcome.page = page.url;
        outcome.status = status;
        report(outcome);
      },
    };
  }

  function twinOf(
    request: Request,
    pathname: string,
    found: ResolvedRequest,
    snapshot: ContentSnapshot,
    type: TextType,
  ): Response {
    const outcome = createOutcome(request, pathname, request.method);
    outcome.surface = 'markdown';
    outcome.page = found.page.url;
    const redirected =
      found.redirectedFrom === undefined
        ? undefined
        : {
            redirectedFrom: found.redirectedFrom,
            ...(found.fragment !== undefined && { fragment: found.fragment }),
          };
    return record(outcome, markdownResponse(request, found.page, snapshot, type, redirected));
  }

  return {
    async ready() {
      if (cause) throw cause;
      await currentRuntime();
      await store.opened();
    },
    async answer(request, context) {
      // The path a router compares; a Request's URL always has one.
      const pathname = canonicalizePath(new URL(request.url).pathname)!;
      try {
        return await decide(request, pathname, context);
      } catch (error) {
        // Whatever failed, the client gets a JSON answer in the shape of its route, never a host's error page.
        return { kind: 'response', response: renderRefusal(pathname, error) };
      }
    },
    async handle(request, context) {
      const target = new URL(request.url).pathname;
      const outcome = createOutcome(
        request,
        canonicalizePath(target) ?? target,
        context.method ?? request.method,
      );
      return record(outcome, await respond(request, context, outcome, undefined));
    },
    async currentBuild() {
      const snapshot = await content.current().catch(() => undefined);
      return snapshot && { urls: snapshot.urls, files: snapshot.files };
    },
    async pageDirective(pathname) {
      const snapshot = await content.current().catch(() => undefined);
      if (!snapshot) return undefined;
      const found = findPageOfRequest(snapshot.pages, pathname);
      return buildPageDirective(
        snapshot.manifest.options.directives,
        snapshot.urls,
        found && !found.twin ? found.page.path : undefined,
      );
    },
    renderRefusal,
    async close() {
      content.close();
      await Promise.all(recorders.map((recorder) => recorder.close()));
      await store.close();
    },
  };
}

/** The runtime's files a Worker reads among its public assets (hosts/workers/publish-workers-runtime.ts): nobody else's to fetch. */
const PRIVATE_PREFIX = `/${WORKERS_RUNTIME_DIR}/`;
const NOT_FOUND = () =>
  new Response('Not found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
/** A request the site answers as it is: neither a GET nor a HEAD, so no page. */
const SITE: Answer = { kind: 'site' };
/** A GET or HEAD of no content page (or before a build): the security headers, and nothing to report. */
const NOT_CONTENT = { kind: 'page', headers: PAGE_SECURITY_HEADERS, sent() {} } as const;
