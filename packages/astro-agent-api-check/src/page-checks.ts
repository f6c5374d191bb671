import { DOCUMENT_PATHS, WELL_KNOWN_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import { fetchSample, twinUrlOf, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn, type CheckOutcome, type CheckStatus } from './check-result.ts';
import { mainText, parseHtmlDocument, readableText } from './html-document.ts';
import { parseLinkHeader } from './link-header.ts';
import { pageKey } from './page-marks.ts';
import { fetchPageForms } from './page-set.ts';
import { describeAnswer, mediaType, type HttpAnswer } from './site-http.ts';

/** AFDocs' page-size thresholds: characters after conversion, decoded bytes. */
const SIZE = { pass: 50_000, fail: 100_000 };
const TRANSFER = { pass: 1_000_000, fail: 10_000_000 };
/** AFDocs' content-start-position: the content should start in the first 10 % of what an agent reads, and must in the first half. */
const START = { pass: 0.1, fail: 0.5 };
/** Less readable text than this in a page's body is an empty shell that scripts fill (AFDocs' rendering-strategy). */
const SHELL_CHARACTERS = 100;
/** Mintlify's TTFB limit. */
const TTFB_MS = 2000;
const MAX_REDIRECTS = 5;
/** A path no site publishes, to see how a missing page is answered (in the site's trailing-slash form). */
const MISSING_PAGE = 'agent-api-check-missing-page-7f3a9c';

/** The worst of several statuses (fail > warn > pass). */
function worst(statuses: CheckStatus[]): CheckStatus {
  return statuses.includes('fail') ? 'fail' : statuses.includes('warn') ? 'warn' : 'pass';
}

/** A size against two thresholds. */
function bySize(size: number, limits: { pass: number; fail: number }): CheckStatus {
  return size > limits.fail ? 'fail' : size > limits.pass ? 'warn' : 'pass';
}

async function sizes(
  what: string,
  unit: string,
  limits: { pass: number; fail: number },
  measure: (answer: HttpAnswer) => number,
  answers: HttpAnswer[],
): Promise<CheckOutcome> {
  const measured = answers
    .filter((answer) => answer.status === 200)
    .map((answer) => ({ url: answer.url, size: measure(answer) }));
  if (measured.length === 0) return skip(`no ${what} answered 200`);
  const over = measured.filter(({ size }) => bySize(size, limits) !== 'pass');
  const status = worst(measured.map(({ size }) => bySize(size, limits)));
  const largest = Math.max(...measured.map(({ size }) => size));
  const message = `largest of ${measured.length} sampled ${what}: ${largest.toLocaleString('en')} ${unit}`;
  const details = over.map(({ url, size }) => `${url}: ${size.toLocaleString('en')} ${unit}`);
  return status === 'pass'
    ? pass(message)
    : status === 'warn'
      ? warn(`${message}, over ${limits.pass.toLocaleString('en')}`, details)
      : fail(`${message}, over ${limits.fail.toLocaleString('en')}`, details);
}

/** RFC 9111 §5.2 as AFDocs' cache-header-hygiene grades it: short max-age, or revalidation with a validator. */
export function gradeCaching(headers: Headers): CheckStatus {
  const cacheControl = (headers.get('cache-control') ?? '').toLowerCase();
  const directives = new Map(
    cacheControl
      .split(',')
      .map((part) => part.trim().split('=') as [string, string | undefined])
      .filter(([name]) => name),
  );
  const validator = headers.has('etag') || headers.has('last-modified');
  if (directives.has('no-store') || directives.has('no-cache')) return 'pass';
  if (directives.has('must-revalidate') && validator) return 'pass';
  const maxAge = Number(directives.get('s-maxage') ?? directives.get('max-age') ?? NaN);
  if (Number.isNaN(maxAge)) return validator ? 'pass' : headers.has('expires') ? 'warn' : 'fail';
  return maxAge <= 3600 ? 'pass' : maxAge <= 86_400 ? 'warn' : 'fail';
}

/** Follows a redirect chain by hand, to report every hop. */
async function followRedirects(context: CheckContext, first: HttpAnswer): Promise<string[]> {
  const hops = [first.url];
  let answer = first;
  while (answer.status >= 300 && answer.status < 400 && hops.length <= MAX_REDIRECTS) {
    const location = answer.headers.get('location');
    if (!location) break;
    const next = new URL(location, context.http.locate(answer.url)).href;
    hops.push(next);
    if (!context.http.isOnSite(next)) break;
    answer = await context.http.fetch(next);
  }
  return hops;
}

export const pageChecks: CheckRuns = {
  async 'page-size-html'(context) {
    const sample = await fetchSample(context);
    return sizes(
      'pages',
      'characters of text',
      SIZE,
      (answer) => readableText(parseHtmlDocument(answer.text, answer.url)).length,
      sample.map(({ answer }) => answer),
    );
  },

  async 'page-size-markdown'(context) {
    const forms = await fetchPageForms(context);
    return sizes(
      'twins',
      'characters',
      SIZE,
      (answer) => answer.text.length,
      forms.map(({ twin }) => twin),
    );
  },

  async 'page-size-transfer'(context) {
    const sample = await fetchSample(context);
    return sizes(
      'pages',
      'bytes',
      TRANSFER,
      (answer) => answer.bytes,
      sample.map(({ answer }) => answer),
    );
  },

  async 'content-start'(context) {
    const sample = (await fetchSample(context)).filter(
      ({ answer }) => answer.status === 200 && mediaType(answer) === 'text/html',
    );
    if (sample.length === 0) return skip('no sampled HTML page answered 200');
    const shells: string[] = [];
    const late: { url: string; share: number }[] = [];
    for (const { page, answer } of sample) {
      const document = parseHtmlDocument(answer.text, answer.url);
      const text = readableText(document, { withoutChrome: true });
      if (readableText(document).length < SHELL_CHARACTERS) {
        shells.push(
          `${page}: ${text.length} characters of text in the HTML (rendered by scripts?)`,
        );
        continue;
      }
      const main = mainText(document);
      const at = main ? text.indexOf(main.slice(0, 60)) : -1;
      if (at > 0) late.push({ url: page, share: at / text.length });
    }
    if (shells.length > 0)
      return fail(`${shells.length} sampled pages are empty without scripts`, shells);
    const status = worst(late.map(({ share }) => bySize(share, START)));
    const details = late
      .filter(({ share }) => share > START.pass)
      .map(
        ({ url, share }) =>
          `${url}: the main content starts at ${Math.round(share * 100)} % of the text`,
      );
    if (status === 'pass')
      return pass(
        `the main content of all ${sample.length} sampled pages starts in the first ${START.pass * 100} % of their text`,
      );
    return status === 'warn'
      ? warn(
          `the main content of ${details.length} sampled pages starts past ${START.pass * 100} %`,
          details,
        )
      : fail(`the main content of some sampled pages starts past ${START.fail * 100} %`, details);
  },

  async 'http-status-codes'(context) {
    const { site } = context;
    const slash =
      site.pages.filter((page) => page.endsWith('/')).length * 2 >= site.pages.length ? '/' : '';
    const page = `${site.siteUrl}/${MISSING_PAGE}${slash}`;
    const problems: string[] = [];
    for (const url of [page, twinUrlOf(page, site.siteUrl)]) {
      const first = await context.http.fetch(url);
      // One redirect on the same host (a trailing-slash rule) to a 404 is still a 404.
      const hops =
        first.status >= 300 && first.status < 400 ? await followRedirects(context, first) : [url];
      const answer =
        hops.length === 2 && context.http.isOnSite(hops[1]!)
          ? await context.http.fetch(hops[1]!)
          : first;
      if (answer.status === 404 || answer.status === 410) continue;
      problems.push(
        answer.status === 200
          ? `${answer.url} → 200: a soft 404`
          : hops.length > 1
            ? hops.join(' → ')
            : describeAnswer(answer),
      );
    }
    return problems.length > 0
      ? fail('a page that does not exist is not answered 404', problems)
      : pass(`a missing page and its .md answer 404`);
  },

  async redirects(context) {
    const sample = await fetchSample(context);
    const failures: string[] = [];
    const notes: string[] = [];
    for (const { answer } of sample) {
      if (answer.status < 300 || answer.status >= 400) continue;
      const hops = await followRedirects(context, answer);
      const line = hops.join(' → ');
      if (hops.length > 2 || hops.some((hop) => !context.http.isOnSite(hop))) failures.push(line);
      else notes.push(line);
    }
    const other = sample
      .filter(
        ({ answer }) => answer.status !== 200 && (answer.status < 300 || answer.status >= 400),
      )
      .map(({ answer }) => describeAnswer(answer));
    if (failures.length > 0 || other.length > 0)
      return fail(
        `${failures.length + other.length} of ${sample.length} sampled pages redirect across hosts, chain, or fail`,
        [...failures, ...other],
      );
    if (notes.length > 0)
      return warn(
        `${notes.length} of ${sample.length} sampled pages are published at an address that redirects`,
        notes,
      );
    return pass(`all ${sample.length} sampled pages answer 200 without a redirect`);
  },

  async 'cache-headers'(context) {
    const forms = await fetchPageForms(context);
    const answers = [
      ...(context.site.llms ? [context.site.llms.answer] : []),
      ...forms.flatMap(({ html, twin }) => [html, twin]),
    ].filter((answer) => answer.status === 200);
    if (answers.length === 0)
      return skip('nothing to grade: no llms.txt, page or twin answered 200');
    const graded = answers.map((answer) => ({ answer, status: gradeCaching(answer.headers) }));
    const details = graded
      .filter(({ status }) => status !== 'pass')
      .map(
        ({ answer, status }) =>
          `${answer.url} (${status}): Cache-Control ${JSON.stringify(answer.headers.get('cache-control'))}, ETag ${answer.headers.has('etag') ? 'yes' : 'no'}, Last-Modified ${answer.headers.has('last-modified') ? 'yes' : 'no'}`,
      );
    const status = worst(graded.map(({ status }) => status));
    const message = `${graded.length - details.length} of ${graded.length} answers (llms.txt, sampled pages and twins) cache briefly or revalidate`;
    return status === 'pass'
      ? pass(message)
      : status === 'warn'
        ? warn(message, details)
        : fail(message, details);
  },

  async 'link-headers'(context) {
    const forms = await fetchPageForms(context);
    const problems: string[] = [];
    for (const { page, html, twin } of forms) {
      if (html.status !== 200) continue;
      const links = parseLinkHeader(html.headers.get('link'));
      const alternate = links.find(
        (link) => link.rel.includes('alternate') && link.type === 'text/markdown',
      );
      if (!alternate) problems.push(`${page}: no Link rel="alternate" type="text/markdown"`);
      else if (
        twin.status === 200 &&
        pageKey(context.http.locate(new URL(alternate.url, page).href)) !==
          pageKey(context.http.locate(twin.url))
      )
        problems.push(`${page}: Link names ${alternate.url} as its Markdown, not ${twin.url}`);
    }
    if (context.site.api) {
      const home = parseLinkHeader(context.site.home.headers.get('link'));
      if (!home.some((link) => link.rel.includes('api-catalog')))
        problems.push(
          `${context.site.siteUrl}/: no Link rel="api-catalog" (${WELL_KNOWN_PATHS.apiCatalog})`,
        );
    }
    if (problems.length === 0)
      return pass(`all ${forms.length} sampled pages send Link headers naming their twin`);
    const outcome = fail(
      `${problems.length} Link header problem(s) on ${forms.length} sampled pages`,
      problems,
    );
    return context.site.api
      ? outcome
      : warn(
          `${outcome.message} (a static host: Link headers need a rule of the host)`,
          outcome.details,
        );
  },

  async ttfb(context) {
    const { site, http } = context;
    const forms = await fetchPageForms(context);
    const answers = [
      site.home,
      forms[0]?.twin,
      site.llms?.answer ?? (await http.fetch(`${site.siteUrl}${DOCUMENT_PATHS.llms}`)),
    ].filter((answer): answer is HttpAnswer => answer !== undefined && answer.status !== 0);
    const slow = answers
      .filter((answer) => answer.ms > TTFB_MS)
      .map((answer) => `${answer.url}: ${Math.round(answer.ms)} ms`);
    const message = answers
      .map((answer) => `${new URL(answer.url).pathname} ${Math.round(answer.ms)} ms`)
      .join(', ');
    return slow.length > 0
      ? warn(`first bytes after more than ${TTFB_MS} ms: ${message}`, slow)
      : pass(message);
  },
};
