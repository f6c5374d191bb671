import { join } from 'node:path';
import { createTrafficRecorder } from '../analytics/traffic-recorder.ts';
import { ContentNotBuiltError, createContentModel, type ContentSnapshot } from '../content/content-model.ts';
import type { ApiError } from '../api-error.ts';
import { parseEnvironment } from '../environment.ts';
import { API_VERSION } from '../versioning.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';
import { createBuildRuntime, type BuildRuntime } from './build-runtime.ts';
import { checkMethod } from './check-method.ts';
import { checkOrigin } from './check-origin.ts';
import { buildClaimedPaths, canonicalizePath, isClaimedPath, type ClaimedPaths } from './claimed-paths.ts';
import type { RequestContext } from './context.ts';
import { createSdkLeg } from './mcp/serve-with-sdk.ts';
import { buildPageLinkHeader, findPageForPath, markdownResponse, prefersMarkdown } from './negotiate.ts';
import { createOutcome, type Outcome, type OutcomeListener } from './outcome.ts';
import { API_HEADERS, jsonResponse, renderError, withHeaders, type ErrorLogger } from './respond.ts';
import { findRoute, notFoundError } from './route-table.ts';

export interface AgentApi {
  /** Loads the current build; rejects when there is none, or when a start-time setting is invalid. */
  ready(): Promise<void>;
  /** True for the paths this runtime answers (API, OAuth, identity, MCP, agent documents). */
  isAgentPath(pathname: string): boolean;
  handle(request: Request, context: RequestContext): Promise<Response>;
  /** For a site page: its Markdown twin when the client asks for Markdown, else undefined. */
  negotiatePage(request: Request): Promise<Response | undefined>;
  /** Headers for a site page: the security headers, and for a content page `Link` to its twin and the agent documents. */
  pageHeaders(pathname: string): Promise<Record<string, string>>;
  /** Reports an HTML site page the site answered, once sent: traffic counting keeps those fetched by known agents. */
  reportPage(request: Request, status: number): void;
  /** An error found before a request could be made of the bytes (the transport could not parse them), in the shape of the route its path names. */
  renderRefusal(pathname: string | undefined, error: ApiError): Response;
  close(): Promise<void>;
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

/** Until a build is loaded, the paths of the default API base path are claimed. */
const DEFAULT_API_BASE_PATH = '/api/v1';

export interface CreateAgentApiOptions {
  /** The build output folder (Astro's outDir), holding client/, server/ and agent-api/. */
  outDir: string;
  /** Read once, at start: AGENT_API_DATA_DIR, REDIS_URL, AGENT_API_ANALYTICS* and the AGENT_API_QUOTA_* overrides. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  log?: ErrorLogger;
  /** Called once per answered request with what it was (outcome.ts): where traffic is counted. */
  onOutcome?: OutcomeListener;
}

/**
 * The run-time surface as one web-standard handler over a build's output. This file only composes:
 * the store and the SDK leg live as long as the process; everything a build decides (routes,
 * policies, trustProxy, allowed origins, the API base path) lives in its BuildRuntime, made anew
 * when a rebuild lands. A request goes route → origin → method → the route's own steps (for an
 * operation: caller → quota → validate → operation → representation), and its outcome is reported.
 */
export function createAgentApi(options: CreateAgentApiOptions): AgentApi {
  const env = options.env ?? process.env;
  const log: ErrorLogger = options.log ?? ((message, cause) => console.error(message, cause));
  const content = createContentModel({ outDir: options.outDir });
  const shared = { env, log, clientDir: join(options.outDir, 'client'), sdk: createSdkLeg() };
  const runtimes = new WeakMap<ContentSnapshot, BuildRuntime>();
  let store: Promise<Store> | undefined;
  let claimed: ClaimedPaths = buildClaimedPaths(DEFAULT_API_BASE_PATH);
  let latest: BuildRuntime | undefined;
  const traffic = createTrafficRecorder({ env, log, store: openSharedStore });
  const report: OutcomeListener = (outcome) => {
    traffic.record(outcome);
    options.onOutcome?.(outcome);
  };

  function openSharedStore(): Promise<Store> {
    store ??= openStore({ dataDir: parseEnvironment(env).AGENT_API_DATA_DIR, env }).catch((error: unknown) => {
      store = undefined;
      throw error;
    });
    return store;
  }

  async function currentRuntime(): Promise<BuildRuntime> {
    const snapshot = await content.current();
    let runtime = runtimes.get(snapshot);
    if (!runtime) {
      runtime = createBuildRuntime(snapshot, { ...shared, store: await openSharedStore() });
      runtimes.set(snapshot, runtime);
      claimed = runtime.claimed;
      latest = runtime;
    }
    return runtime;
  }

  async function answer(request: Request, context: RequestContext, outcome: Outcome): Promise<Response> {
    let runtime: BuildRuntime;
    try {
      runtime = await currentRuntime();
    } catch (error) {
      if (!(error instanceof ContentNotBuiltError)) return renderError(error, 'api', log, API_HEADERS);
      return jsonResponse(
        { code: 'not_built', message: 'The site has not been built yet.', data: { status: 503, hint: 'Run `npm run build`, then retry.' } },
        { status: 503, headers: { ...API_HEADERS, 'Retry-After': '10' } },
      );
    }
    const route = findRoute(runtime.routes, outcome.path);
    if (!route) return renderError(notFoundError(outcome.path, runtime.api), 'api', log, { ...API_HEADERS, ...runtime.headers });
    outcome.surface = route.surface;
    let cors: Record<string, string> = {};
    let response: Response;
    try {
      cors = checkOrigin(request, route, runtime.origins);
      response = checkMethod(outcome.method, route) ?? (await route.handle(request, context, outcome));
    } catch (error) {
      response = renderError(error, route.errors, log);
    }
    return withHeaders(response, { ...runtime.headers, ...cors });
  }

  function record(outcome: Outcome, response: Response): Response {
    outcome.status = response.status;
    report(outcome);
    return response;
  }

  return {
    async ready() {
      await currentRuntime();
    },
    isAgentPath(pathname) {
      return isClaimedPath(claimed, pathname);
    },
    async handle(request, context) {
      const target = new URL(request.url).pathname;
      const outcome = createOutcome(request, canonicalizePath(target) ?? target, context.method ?? request.method);
      return record(outcome, await answer(request, context, outcome));
    },
    async negotiatePage(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const { pathname } = new URL(request.url);
      const snapshot = await content.current().catch(() => undefined);
      const found = snapshot && findPageForPath(snapshot, pathname);
      if (!found || (!found.twin && !prefersMarkdown(request.headers.get('Accept')))) return undefined;
      const outcome = createOutcome(request, pathname, request.method);
      outcome.surface = 'markdown';
      outcome.page = found.page.url;
      return record(outcome, markdownResponse(request, found.page, snapshot));
    },
    async pageHeaders(pathname) {
      const snapshot = await content.current().catch(() => undefined);
      const found = snapshot && findPageForPath(snapshot, pathname);
      if (!found || found.twin) return PAGE_SECURITY_HEADERS;
      return { ...PAGE_SECURITY_HEADERS, Link: buildPageLinkHeader(found.page, snapshot.manifest.site), Vary: 'Accept' };
    },
    reportPage(request, status) {
      const { pathname } = new URL(request.url);
      void content.current().then((snapshot) => {
        const found = findPageForPath(snapshot, pathname);
        if (!found || found.twin) return;
        const outcome = createOutcome(request, pathname, request.method);
        outcome.surface = 'page';
        outcome.page = found.page.url;
        outcome.status = status;
        report(outcome);
      }, () => {});
    },
    renderRefusal(pathname, error) {
      const route = pathname === undefined || latest === undefined ? undefined : findRoute(latest.routes, pathname);
      return withHeaders(renderError(error, route?.errors ?? 'api', log), latest?.headers ?? { 'API-Version': API_VERSION });
    },
    async close() {
      content.close();
      await traffic.close();
      await (await store?.catch(() => undefined))?.close();
    },
  };
}
