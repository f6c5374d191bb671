import { AstroError } from 'astro/errors';
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MANIFEST_FILE,
  MANIFEST_VERSION,
  RUNTIME_DIR,
  type BuiltManifest,
  type BuiltPage,
  type LeftOutPage,
  type Manifest,
  type RedirectRule,
} from '../content/manifest.ts';
import { encodePageTexts, isPageTextsFileName, pageTextsFileName } from '../content/page-texts.ts';
import type { CompanyInfo } from '../contract/company-info.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';
import {
  createSiteUrls,
  DEFAULT_ROUTING,
  type RoutingSettings,
  type SiteUrls,
} from '../contract/site-urls.ts';
import { writeFileAtomically } from '../shared/write-atomically.ts';
import type { ConvertedPage } from './converted-page.ts';
import { contentLanguageOf, type PageCopy } from './find-copies.ts';

/**
 * The manifest of a build, its pages with their text: pages (and copies, build/find-copies.ts) sorted by
 * path, company URLs absolute, a buildId that changes with the content. A page's language is its text's.
 */
export function buildManifest(input: {
  site: string;
  /** Astro's routing settings; Astro's defaults when not given. */
  routing?: RoutingSettings;
  options: ResolvedAgentApiOptions;
  company?: CompanyInfo;
  pages: readonly ConvertedPage[];
  copies?: readonly PageCopy[];
  /** The site's redirect map (classify-pages.ts `buildRedirectRules`). */
  redirects?: readonly RedirectRule[];
  /** The pages that are not content and forward nowhere. */
  leftOut?: readonly LeftOutPage[];
  generatedAt?: Date;
}): BuiltManifest {
  const { site, options, routing = DEFAULT_ROUTING } = input;
  const company =
    input.company && buildAbsoluteCompany(input.company, createSiteUrls(site, routing));
  const entryOf = (page: ConvertedPage | PageCopy): BuiltPage => {
    const {
      lang: _lang,
      contentLang: _contentLang,
      contentAlternate: _contentAlternate,
      textHash: _textHash,
      documentTitle: _documentTitle,
      siteName: _siteName,
      pagefind: _pagefind,
      notContent: _notContent,
      ...entry
    } = page;
    return {
      ...entry,
      language: contentLanguageOf(page, options.language),
      facets: checkPageFacets(page, options.facets),
    };
  };
  const byPath = (a: BuiltPage, b: BuiltPage) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const pages = input.pages.map(entryOf).sort(byPath);
  const copies = (input.copies ?? []).map(entryOf).sort(byPath);
  const redirects = [...(input.redirects ?? [])];
  const leftOut = [...(input.leftOut ?? [])].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  // The options are hashed too: truncateAt or the API path change what the API answers for the same pages.
  const buildId = createHash('sha256')
    .update(JSON.stringify({ pages, copies, redirects, leftOut, company, options, routing }))
    .digest('base64url')
    .slice(0, 12);
  return {
    version: MANIFEST_VERSION,
    buildId,
    site,
    routing,
    generatedAt: (input.generatedAt ?? new Date()).toISOString(),
    options,
    ...(company && { company }),
    pages,
    copies,
    redirects,
    leftOut,
  };
}

/**
 * The page's values of the declared facets. A value the facet does not allow fails the build, naming
 * the page: search_pages could never find the page by it. Facets the options do not declare are left out.
 */
function checkPageFacets(
  page: Pick<BuiltPage, 'path' | 'facets'>,
  facets: ResolvedAgentApiOptions['facets'],
): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(page.facets)) {
    const facet = facets[name];
    if (!facet) continue;
    if (!Object.hasOwn(facet.values, value)) {
      throw new AstroError(
        `The page ${page.path} is marked <meta data-agent-facet="${name}" content="${value}">, but "${value}" is not a value of the facet \`${name}\`.`,
        `Use one of ${Object.keys(facet.values).join(', ')}, or add "${value}" to facets.${name}.values in astro.config.mjs.`,
      );
    }
    checked[name] = value;
  }
  return checked;
}

/** Company facts with every URL field absolute: a site path of the options goes under the site's root (`SiteUrls.linkUrl`). */
export function buildAbsoluteCompany(company: CompanyInfo, urls: SiteUrls): CompanyInfo {
  const absolute = urls.linkUrl;
  return {
    ...company,
    website: absolute(company.website),
    ...(company.services && {
      services: company.services.map((service) => ({ ...service, url: absolute(service.url) })),
    }),
    ...(company.cities && {
      cities: company.cities.map((city) => ({ ...city, url: absolute(city.url) })),
    }),
    ...(company.pages && {
      pages: Object.fromEntries(
        Object.entries(company.pages).map(([name, url]) => [name, absolute(url)]),
      ),
    }),
  };
}

/**
 * Writes the pages' text to `<outDir>/agent-api/page-texts-<n>.bin`, then the manifest, which lists
 * those files and says where each page's text lies, to `manifest.json`: each through a temporary file
 * and a rename, so a server never reads half of one, and the manifest last, since a new one is what a
 * running server reloads on (it refuses a texts file of another build). Texts files of an earlier
 * build that this one did not write are removed. Returns the manifest written.
 */
export async function writeManifest(outDir: string, built: BuiltManifest): Promise<Manifest> {
  const dir = join(outDir, RUNTIME_DIR);
  await mkdir(dir, { recursive: true });
  const { files, twins } = encodePageTexts(built.buildId, [...built.pages, ...built.copies]);
  const textFiles = files.map((_, i) => pageTextsFileName(i));
  for (const [i, bytes] of files.entries())
    await writeFileAtomically(join(dir, textFiles[i]!), bytes);
  const withTwin =
    (offset: number) =>
    (
      { frontMatter: _frontMatter, markdown: _markdown, plainText: _plainText, ...page }: BuiltPage,
      i: number,
    ) => ({ ...page, twin: twins[offset + i]! });
  const manifest: Manifest = {
    ...built,
    pages: built.pages.map(withTwin(0)),
    copies: built.copies.map(withTwin(built.pages.length)),
    textFiles,
  };
  await writeFileAtomically(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
  const stale = (await readdir(dir)).filter(
    (name) => isPageTextsFileName(name) && !textFiles.includes(name),
  );
  await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })));
  return manifest;
}
