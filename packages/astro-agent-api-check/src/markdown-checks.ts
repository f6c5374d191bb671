import { parse as parseYaml } from 'yaml';
import { DOCUMENT_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import type { CheckContext, CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn, type CheckOutcome } from './check-result.ts';
import { parseHtmlDocument } from './html-document.ts';
import { pageKey } from './page-marks.ts';
import { fetchPageForms, type PageForms } from './page-set.ts';
import { contentSignalProblems } from './robots-checks.ts';
import { describeAnswer, looksLikeHtml, mediaType, type HttpAnswer } from './site-http.ts';
import { parseLinkHeader } from './link-header.ts';

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
/** Characters per token a real tokenizer gives on text in any script: English ~4, CJK ~1; beyond these bounds the estimate is not one. */
const CHARACTERS_PER_TOKEN = { min: 0.5, max: 10 };
/** The headers a HEAD must answer as GET does (RFC 9110 §9.3.2). */
const HEAD_HEADERS = ['content-type', 'vary', 'link', 'x-markdown-tokens', 'content-signal'];
/** Where in the body a directive counts as "at the top" (AFDocs' llms-txt-directive-* threshold). */
const TOP_SHARE = 0.1;

/**
 * On a site that serves no API, nothing answers per request but files: negotiation and response
 * headers depend on the host's rules (astro-agent-api's README, "Answering Accept: text/markdown on a
 * static host"), so what such a host cannot do is a warning, not a failure.
 */
function hostDependent(context: CheckContext, outcome: CheckOutcome): CheckOutcome {
  if (context.site.api || outcome.status !== 'fail') return outcome;
  return warn(
    `${outcome.message} (a static host: this needs a rule of the host, see "Answering Accept: text/markdown on a static host" in astro-agent-api's README)`,
    outcome.details,
  );
}

/** Runs `problem` on each page's forms and turns the lines into one outcome. */
async function perPage(
  context: CheckContext,
  what: string,
  problem: (forms: PageForms) => string | string[] | undefined,
): Promise<CheckOutcome> {
  const all = await fetchPageForms(context);
  const usable = all.filter((forms) => forms.twin.status === 200);
  if (usable.length === 0) return skip('no sampled page has a Markdown twin (see markdown-url)');
  const problems = usable.flatMap((forms) => [problem(forms) ?? []].flat());
  return problems.length > 0
    ? fail(`${problems.length} problem(s) in ${usable.length} sampled twins: ${what}`, problems)
    : pass(`${what}: all ${usable.length} sampled pages`);
}

function isMarkdown(answer: HttpAnswer): boolean {
  return (
    answer.status === 200 && MARKDOWN_TYPES.has(mediaType(answer)) && !looksLikeHtml(answer.text)
  );
}

function frontMatterOf(markdown: string): Record<string, unknown> | undefined {
  const block = FRONT_MATTER.exec(markdown)?.[1];
  if (block === undefined) return undefined;
  try {
    const value = parseYaml(block) as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The x-markdown-tokens problem of a Markdown answer, measured against `text` (the body GET gave). */
function tokensProblem(answer: HttpAnswer, text: string, how: string): string | undefined {
  const value = answer.headers.get('x-markdown-tokens');
  if (value === null) return `${how} ${answer.url}: no x-markdown-tokens`;
  const tokens = Number(value);
  if (!/^\d+$/.test(value.trim()) || tokens <= 0)
    return `${how} ${answer.url}: x-markdown-tokens is "${value}", not a positive integer`;
  const ratio = text.length / tokens;
  if (ratio < CHARACTERS_PER_TOKEN.min || ratio > CHARACTERS_PER_TOKEN.max)
    return `${how} ${answer.url}: ${tokens} tokens for ${text.length} characters is not a token estimate`;
  return undefined;
}

export const markdownChecks: CheckRuns = {
  async 'markdown-url'(context) {
    const all = await fetchPageForms(context);
    const problems = all
      .filter((forms) => !isMarkdown(forms.twin))
      .map(({ twin }) =>
        twin.status !== 200
          ? describeAnswer(twin)
          : `${twin.url} is ${mediaType(twin) || 'untyped'}${looksLikeHtml(twin.text) ? ', an HTML page' : ''}`,
      );
    return problems.length > 0
      ? fail(
          `${problems.length} of ${all.length} sampled pages have no Markdown twin at <page>.md`,
          problems,
        )
      : pass(`all ${all.length} sampled pages have a twin, text/markdown`);
  },

  async 'markdown-negotiation'(context) {
    return hostDependent(
      context,
      await perPage(
        context,
        'Accept: text/markdown answers the twin with Vary: Accept',
        ({ page, negotiated, twin }) => {
          if (!isMarkdown(negotiated))
            return `GET ${page} with Accept: text/markdown → ${negotiated.status} ${mediaType(negotiated)}`;
          if (!/(^|,)\s*accept\s*(,|$)/i.test(negotiated.headers.get('vary') ?? ''))
            return `${page}: the Markdown answer has no Vary: Accept (Vary: ${negotiated.headers.get('vary') ?? 'absent'})`;
          return negotiated.text === twin.text
            ? undefined
            : `${page}: the negotiated Markdown differs from ${twin.url}`;
        },
      ),
    );
  },

  async 'markdown-negotiation-text-plain'(context) {
    return hostDependent(
      context,
      await perPage(
        context,
        'Accept: text/plain, text/html;q=0.9 answers a non-HTML text',
        ({ page, textPlain }) => {
          const type = mediaType(textPlain);
          if (textPlain.status !== 200) return describeAnswer(textPlain);
          return type.startsWith('text/') && type !== 'text/html' && !looksLikeHtml(textPlain.text)
            ? undefined
            : `GET ${page} with Accept: text/plain, text/html;q=0.9 → ${type}`;
        },
      ),
    );
  },

  async 'markdown-head'(context) {
    return hostDependent(
      context,
      await perPage(context, 'HEAD answers as GET', (forms) => {
        const pairs: [HttpAnswer, HttpAnswer, string][] = [
          [forms.twin, forms.twinHead, forms.twin.url],
          ...(isMarkdown(forms.negotiated)
            ? [
                [
                  forms.negotiated,
                  forms.negotiatedHead,
                  `${forms.page} (Accept: text/markdown)`,
                ] as [HttpAnswer, HttpAnswer, string],
              ]
            : []),
        ];
        return pairs.flatMap(([get, head, what]) => {
          if (head.status !== get.status)
            return [`HEAD ${what} → ${head.status}, GET → ${get.status}`];
          return HEAD_HEADERS.filter(
            (name) => (head.headers.get(name) ?? '') !== (get.headers.get(name) ?? ''),
          ).map(
            (name) =>
              `HEAD ${what}: ${name} is ${JSON.stringify(head.headers.get(name))}, GET's is ${JSON.stringify(get.headers.get(name))}`,
          );
        });
      }),
    );
  },

  async 'markdown-tokens'(context) {
    return hostDependent(
      context,
      await perPage(context, 'Markdown answers carry x-markdown-tokens', (forms) =>
        [
          tokensProblem(forms.twin, forms.twin.text, 'GET'),
          tokensProblem(forms.twinHead, forms.twin.text, 'HEAD'),
          isMarkdown(forms.negotiated)
            ? tokensProblem(forms.negotiated, forms.negotiated.text, 'GET (Accept: text/markdown)')
            : undefined,
        ].filter((line): line is string => line !== undefined),
      ),
    );
  },

  async 'markdown-content-signal'(context) {
    return hostDependent(
      context,
      await perPage(context, 'Markdown answers carry Content-Signal', (forms) =>
        (
          [
            [forms.twin, 'GET'],
            [forms.twinHead, 'HEAD'],
            ...(isMarkdown(forms.negotiated)
              ? [[forms.negotiated, 'GET (Accept: text/markdown)']]
              : []),
          ] as [HttpAnswer, string][]
        ).flatMap(([answer, how]) => {
          const value = answer.headers.get('content-signal');
          if (value === null) return [`${how} ${answer.url}: no Content-Signal header`];
          return contentSignalProblems(value).map((problem) => `${how} ${answer.url}: ${problem}`);
        }),
      ),
    );
  },

  async 'markdown-canonical'(context) {
    return hostDependent(
      context,
      await perPage(context, 'twins name their page with Link rel=canonical', ({ page, twin }) => {
        const canonical = parseLinkHeader(twin.headers.get('link')).find((link) =>
          link.rel.includes('canonical'),
        );
        if (!canonical) return `${twin.url}: no Link rel="canonical"`;
        return pageKey(context.http.locate(canonical.url)) === pageKey(context.http.locate(page))
          ? undefined
          : `${twin.url}: canonical is ${canonical.url}, not ${page}`;
      }),
    );
  },

  async 'markdown-front-matter'(context) {
    const missing: string[] = [];
    const outcome = await perPage(
      context,
      'twins start with YAML front matter with a title',
      ({ twin }) => {
        const data = frontMatterOf(twin.text);
        if (!data) return `${twin.url}: no YAML front matter (--- … ---) at the top`;
        if (typeof data.title !== 'string' || data.title.trim() === '')
          return `${twin.url}: the front matter has no title`;
        if (typeof data.description !== 'string' || data.description.trim() === '')
          missing.push(twin.url);
        return undefined;
      },
    );
    if (outcome.status === 'pass' && missing.length > 0)
      return warn(
        `${missing.length} sampled twins have no description in their front matter (their pages have no meta description)`,
        missing,
      );
    return outcome;
  },

  async 'markdown-last-updated'(context) {
    const named: string[] = [];
    const undated: string[] = [];
    const outcome = await perPage(context, 'twins say when their page last changed', ({ twin }) => {
      const data = frontMatterOf(twin.text) ?? {};
      const key = ['last_updated', 'last_modified', 'lastUpdated', 'updated', 'date_modified'].find(
        (name) => data[name] !== undefined,
      );
      // No date is not a wrong date: a page that does not say when it changed, on a first build, has none
      // rather than the build's (README, "Last updated"); only a date that is not one fails.
      if (!key) {
        undated.push(twin.url);
        return undefined;
      }
      const value = data[key];
      if (Number.isNaN(Date.parse(value instanceof Date ? value.toISOString() : String(value))))
        return `${twin.url}: ${key} is "${String(value)}", not a date`;
      if (key !== 'last_updated') named.push(`${twin.url}: ${key}`);
      return undefined;
    });
    if (outcome.status !== 'pass') return outcome;
    if (undated.length > 0)
      return warn(
        `${undated.length} sampled twins have no last_updated: their pages do not say when they changed (JSON-LD dateModified, article:modified_time) and no earlier build dated them`,
        undated,
      );
    if (named.length > 0)
      return warn(
        'the date is there, under another name than last_updated (the name a14y reads)',
        named,
      );
    return outcome;
  },

  async 'markdown-alternate-link'(context) {
    const all = await fetchPageForms(context);
    const problems: string[] = [];
    for (const { page, html } of all) {
      if (html.status !== 200) {
        problems.push(describeAnswer(html));
        continue;
      }
      const alternate = parseHtmlDocument(html.text, context.http.locate(page)).markdownAlternate;
      if (!alternate) {
        problems.push(`${page}: no <link rel="alternate" type="text/markdown">`);
        continue;
      }
      const twin = await context.http.fetch(alternate);
      if (!isMarkdown(twin))
        problems.push(`${page}: its alternate ${describeAnswer(twin)} ${mediaType(twin)}`);
    }
    return problems.length > 0
      ? fail(
          `${problems.length} of ${all.length} sampled pages do not name a twin that answers`,
          problems,
        )
      : pass(`all ${all.length} sampled pages name their twin`);
  },

  async 'directive-html'(context) {
    const all = await fetchPageForms(context);
    const pages = all.filter(({ html }) => html.status === 200);
    if (pages.length === 0) return skip('no sampled page answered 200');
    const missing: string[] = [];
    const low: string[] = [];
    for (const { page, html } of pages) {
      const found = findHtmlDirective(html.text);
      if (found === undefined)
        missing.push(
          `${page}: no pointer to ${DOCUMENT_PATHS.llms} in <body>${/llms\.txt/.test(html.text) ? ' (the one there is display:none, hidden, or inside <nav> or <script>)' : ''}`,
        );
      else if (found > TOP_SHARE)
        low.push(`${page}: the pointer is at ${Math.round(found * 100)} % of the body`);
    }
    if (missing.length > 0)
      return fail(
        `${missing.length} of ${pages.length} sampled pages carry no llms.txt directive`,
        missing,
      );
    if (low.length > 0)
      return warn(
        `${low.length} of ${pages.length} sampled pages have the directive past the first ${TOP_SHARE * 100} % of the body`,
        low,
      );
    return pass(`all ${pages.length} sampled pages point to llms.txt near the top of their body`);
  },

  async 'directive-markdown'(context) {
    const low: string[] = [];
    const outcome = await perPage(
      context,
      'twins start with a blockquote pointing to llms.txt',
      ({ twin }) => {
        const body = twin.text.replace(FRONT_MATTER, '');
        const match = /^>.*llms\.txt/im.exec(body);
        if (!match) return `${twin.url}: no "> … /llms.txt" blockquote`;
        if (match.index / Math.max(1, body.length) > TOP_SHARE)
          low.push(`${twin.url}: at ${Math.round((match.index / body.length) * 100)} %`);
        return undefined;
      },
    );
    if (outcome.status === 'pass' && low.length > 0)
      return warn('the llms.txt blockquote is not at the top of some twins', low);
    return outcome;
  },
};

/**
 * Where, as a share of the body's markup, the first pointer to llms.txt is that an agent reading the
 * HTML meets: a link to it or its path in text, outside <nav>, <script> and <style>, and not hidden
 * from every reader (`display:none`, `visibility:hidden`, the `hidden` attribute); undefined when none.
 */
export function findHtmlDirective(html: string): number | undefined {
  const open = /<body[\s>]/i.exec(html);
  if (!open) return undefined;
  const start = html.indexOf('>', open.index) + 1;
  const end = html.search(/<\/body\s*>/i);
  const body = html.slice(start, end === -1 ? html.length : end);
  const searchable = body.replace(/<(nav|script|style|template)\b[\s\S]*?<\/\1\s*>/gi, (block) =>
    ' '.repeat(block.length),
  );
  for (const match of searchable.matchAll(/\/llms\.txt/gi)) {
    if (!isHiddenAt(searchable, match.index)) return match.index / Math.max(1, searchable.length);
  }
  return undefined;
}

/** Whether an element open around `offset` hides its content from every reader. */
function isHiddenAt(markup: string, offset: number): boolean {
  const open: { name: string; attributes: string }[] = [];
  for (const tag of markup.slice(0, offset).matchAll(/<(\/?)([a-z][\w-]*)([^>]*)>/gi)) {
    const [, closing, tagName, attributes] = tag as unknown as [string, string, string, string];
    const name = tagName.toLowerCase();
    if (VOID_ELEMENTS.has(name) || attributes.endsWith('/')) continue;
    if (!closing) open.push({ name, attributes });
    else {
      const at = open.map((element) => element.name).lastIndexOf(name);
      if (at !== -1) open.length = at;
    }
  }
  return open.some(
    ({ attributes }) =>
      /(^|\s)hidden(\s|=|$)/i.test(attributes) ||
      /style\s*=\s*["'][^"']*(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attributes),
  );
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
