import { startTestServer } from '../../helpers/server.ts';

export interface Target {
  /** Where requests go, without a trailing slash: the local test server or `BASE_URL`. */
  baseUrl: string;
  /** The origin the site publishes its absolute URLs with (`site`), e.g. http://localhost:4321. */
  siteOrigin: string;
  /** True when the suite started the server itself over the local build. */
  local: boolean;
  /** `url` (absolute against `site` or the target, or a path) on the target; undefined when external. */
  toTarget(url: string | URL): URL | undefined;
  close(): Promise<void>;
}

/**
 * The site under test: `BASE_URL` when given (a deployed site, so nothing local is assumed), else the
 * production front started in this process on a free port over the site built once for the tests.
 * The anonymous quota is raised locally so that crawling every page does not hit the 60/min limit.
 */
export async function openTarget(): Promise<Target> {
  const given = process.env.BASE_URL?.trim();
  let baseUrl: string;
  let close = async (): Promise<void> => {};
  if (given) {
    baseUrl = new URL(given).href.replace(/\/+$/, '');
  } else {
    const server = await startTestServer({ env: { AGENT_API_QUOTA_ANONYMOUS: '100000' } });
    baseUrl = server.url;
    close = () => server.close();
  }
  const base = new URL(baseUrl);
  const siteOrigin = await findSiteOrigin(baseUrl);
  return {
    baseUrl,
    siteOrigin,
    local: !given,
    toTarget(url) {
      const parsed = new URL(url, `${baseUrl}/`);
      if (parsed.origin !== siteOrigin && parsed.origin !== base.origin) return undefined;
      // Keep the path below BASE_URL's path, for a site deployed under a sub-path.
      return new URL(
        `${base.pathname.replace(/\/$/, '')}${parsed.pathname}${parsed.search}${parsed.hash}`,
        base.origin,
      );
    },
    close,
  };
}

/** The origin of the absolute URLs the site publishes, read from its sitemap index. */
async function findSiteOrigin(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/sitemap-index.xml`);
  if (!response.ok)
    throw new Error(
      `${baseUrl}/sitemap-index.xml answered ${response.status}; is ${baseUrl} the site?`,
    );
  const first = /<loc>\s*([^<\s]+)\s*<\/loc>/.exec(await response.text());
  if (!first) throw new Error(`${baseUrl}/sitemap-index.xml lists no sitemap`);
  return new URL(first[1]!).origin;
}

/** Every `<loc>` of an XML sitemap or sitemap index. */
export function parseSitemapLocations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((match) =>
    decodeEntities(match[1]!),
  );
}

/** The page URLs of the site's sitemap (sitemap-index.xml → each sitemap), absolute against `site`. */
export async function readSitemap(target: Target): Promise<string[]> {
  const index = await fetchText(target, '/sitemap-index.xml');
  const pages: string[] = [];
  for (const sitemap of parseSitemapLocations(index)) {
    const url = target.toTarget(sitemap);
    if (!url) throw new Error(`sitemap-index.xml points to ${sitemap}, outside the site`);
    pages.push(...parseSitemapLocations(await fetchText(target, url.href)));
  }
  return pages;
}

async function fetchText(target: Target, url: string): Promise<string> {
  const response = await fetch(new URL(url, `${target.baseUrl}/`));
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

export function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|apos|#39|#x27);/g,
    (_, name: string) =>
      ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" })[name] ?? '',
  );
}
