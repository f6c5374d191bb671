import {
  ACCEPT_MARKDOWN,
  ACCEPT_TEXT_PLAIN,
  twinUrlOf,
  type CheckContext,
} from './check-context.ts';
import { pageKey } from './page-marks.ts';
import type { HttpAnswer } from './site-http.ts';

/** A sampled content page with every form the Markdown checks read, each fetched once per run. */
export interface PageForms {
  page: string;
  html: HttpAnswer;
  /** `<page>.md`, or `<page>/index.md` when only that answers. */
  twin: HttpAnswer;
  negotiated: HttpAnswer;
  textPlain: HttpAnswer;
  twinHead: HttpAnswer;
  negotiatedHead: HttpAnswer;
}

const forms = new WeakMap<CheckContext, Promise<PageForms[]>>();

/**
 * The sampled pages that should have a twin: those llms.txt lists (a search page or a 404 page in the
 * sitemap is not content), or every sampled page when llms.txt lists none of them.
 */
export function contentSample(context: CheckContext): string[] {
  const listed = new Set(
    (context.site.llms?.links ?? []).map((link) => pageKey(context.http.locate(link.url))),
  );
  const content = context.site.sample.filter((page) =>
    listed.has(pageKey(context.http.locate(page))),
  );
  return content.length > 0 ? content : context.site.sample;
}

/** Every form of each content page, fetched once for all the checks of a run. */
export function fetchPageForms(context: CheckContext): Promise<PageForms[]> {
  let known = forms.get(context);
  if (!known) {
    known = Promise.all(contentSample(context).map((page) => fetchForms(context, page)));
    forms.set(context, known);
  }
  return known;
}

async function fetchForms(context: CheckContext, page: string): Promise<PageForms> {
  const { http } = context;
  let twinUrl = twinUrlOf(page, context.site.siteUrl);
  let twin = await http.fetch(twinUrl);
  if (twin.status === 404 && page.endsWith('/')) {
    const index = await http.fetch(`${page}index.md`);
    if (index.status === 200) [twinUrl, twin] = [`${page}index.md`, index];
  }
  const [html, negotiated, textPlain, twinHead, negotiatedHead] = await Promise.all([
    http.fetch(page),
    http.fetch(page, { headers: ACCEPT_MARKDOWN }),
    http.fetch(page, { headers: ACCEPT_TEXT_PLAIN }),
    http.fetch(twinUrl, { method: 'HEAD' }),
    http.fetch(page, { method: 'HEAD', headers: ACCEPT_MARKDOWN }),
  ]);
  return { page, html, twin, negotiated, textPlain, twinHead, negotiatedHead };
}
