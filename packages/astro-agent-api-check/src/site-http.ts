import pLimit from 'p-limit';

/** One answer as the checks read it: the body is read whole, redirects are answers, a network failure is status 0. */
export interface HttpAnswer {
  /** The URL as published (before --canonical-origin maps it to the checked host). */
  url: string;
  status: number;
  headers: Headers;
  text: string;
  /** Decoded body size in bytes. */
  bytes: number;
  /** Time to the response headers. */
  ms: number;
  /** Why the request failed, when status is 0. */
  error?: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  /** Ask again even if the same request was answered before (API calls, whose answers count). */
  fresh?: boolean;
}

export interface HttpSettings {
  /** Requests in flight at once. */
  concurrency: number;
  /** Wait before each request, in ms. */
  delayMs: number;
  timeoutMs: number;
  userAgent: string;
}

/** Tally of what the run asked of the host, for the report and the quota budget. */
export interface RequestTally {
  total: number;
  /** Requests answered with a RateLimit header without a bearer token: the anonymous quota they spent. */
  anonymousQuota: number;
}

/**
 * The one way checks reach the site: a bounded number of requests in flight with a delay before each
 * (politeness toward production), a timeout, redirects reported instead of followed, each plain GET
 * and HEAD asked once per run (checks that read the same document share it), and the published
 * origin mapped to the checked one (`--canonical-origin`).
 */
export class SiteHttp {
  readonly tally: RequestTally = { total: 0, anonymousQuota: 0 };
  readonly target: URL;
  readonly settings: HttpSettings;
  readonly #limit;
  readonly #answers = new Map<string, Promise<HttpAnswer>>();
  #publishedOrigin: string | undefined;

  constructor(target: URL, settings: HttpSettings) {
    this.target = target;
    this.settings = settings;
    this.#limit = pLimit(settings.concurrency);
  }

  /** The origin the documents publish; URLs on it are fetched from the checked host. */
  mapOrigin(publishedOrigin: string): void {
    if (publishedOrigin !== this.target.origin) this.#publishedOrigin = publishedOrigin;
  }

  /** Whether a URL is on the site checked (its own origin, or the published one mapped to it). */
  isOnSite(url: string): boolean {
    const origin = safeOrigin(url);
    return (
      origin === this.target.origin || (origin !== undefined && origin === this.#publishedOrigin)
    );
  }

  /** Where a published URL is fetched from. */
  locate(url: string): string {
    if (this.#publishedOrigin && url.startsWith(this.#publishedOrigin))
      return `${this.target.origin}${url.slice(this.#publishedOrigin.length)}`;
    return url;
  }

  fetch(url: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    const method = options.method ?? 'GET';
    const cacheable =
      !options.fresh && options.body === undefined && (method === 'GET' || method === 'HEAD');
    const key = `${method} ${url} ${JSON.stringify(options.headers ?? {})}`;
    if (cacheable) {
      const known = this.#answers.get(key);
      if (known) return known;
    }
    const answer = this.#limit(() => this.#send(url, method, options));
    if (cacheable) this.#answers.set(key, answer);
    return answer;
  }

  async #send(url: string, method: string, options: RequestOptions): Promise<HttpAnswer> {
    if (this.settings.delayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.settings.delayMs));
    this.tally.total += 1;
    const started = performance.now();
    const headers = { 'User-Agent': this.settings.userAgent, ...options.headers };
    try {
      const response = await fetch(this.locate(url), {
        method,
        headers,
        body: options.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      const ms = performance.now() - started;
      const body =
        method === 'HEAD' ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
      if (
        response.headers.has('ratelimit') &&
        !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')
      )
        this.tally.anonymousQuota += 1;
      return {
        url,
        status: response.status,
        headers: response.headers,
        text: new TextDecoder().decode(body),
        bytes: body.byteLength,
        ms,
      };
    } catch (error) {
      const cause =
        error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
      return {
        url,
        status: 0,
        headers: new Headers(),
        text: '',
        bytes: 0,
        ms: performance.now() - started,
        error: cause,
      };
    }
  }
}

/** How an answer reads in a detail line: `GET url → 404`, with the redirect target or the network error. */
export function describeAnswer(answer: HttpAnswer, method = 'GET'): string {
  if (answer.status === 0) return `${method} ${answer.url} → request failed: ${answer.error}`;
  const location = answer.headers.get('location');
  return `${method} ${answer.url} → ${answer.status}${location ? ` (Location: ${location})` : ''}`;
}

/** The media type of an answer, lowercase, without parameters. */
export function mediaType(answer: HttpAnswer): string {
  return (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html[\s>])/i.test(text);
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
