import type { CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn } from './check-result.ts';

export const sitemapChecks: CheckRuns = {
  async 'published-origin'({ site, options, http }) {
    const published = new URL(site.siteUrl).origin;
    const checked = http.target.origin;
    if (options.canonicalOrigin) {
      return published === options.canonicalOrigin
        ? pass(`the documents publish ${published} (--canonical-origin), fetched from ${checked}`)
        : fail(
            `the documents publish ${published}, not the --canonical-origin ${options.canonicalOrigin}`,
            [`read from ${site.siteUrlSource}`],
          );
    }
    return published === checked
      ? pass(
          `the site publishes the address it answers at, ${site.siteUrl} (${site.siteUrlSource})`,
        )
      : fail(
          `the site answers at ${checked} but its documents publish ${published} (${site.siteUrlSource}); the checks followed them on ${checked}`,
        );
  },

  async sitemap({ site, http }) {
    const { sitemap } = site;
    if (!sitemap) {
      const message = `no sitemap: robots.txt names none, and ${site.siteUrl}/sitemap-index.xml and /sitemap.xml do not answer 200`;
      // Agents find the pages through llms.txt; crawlers and three graders still want the sitemap.
      return site.llms ? warn(`${message} (llms.txt lists the pages)`) : fail(message);
    }
    const elsewhere = sitemap.entries
      .filter((entry) => !http.isOnSite(entry.loc))
      .map((entry) => `${entry.loc} is not on this site`);
    const problems = [...sitemap.problems, ...elsewhere];
    if (sitemap.entries.length === 0) return fail(`${sitemap.url} lists no page`, problems);
    if (problems.length > 0)
      return fail(
        `${sitemap.url}: ${problems.length} problem(s) in ${sitemap.entries.length} entries`,
        problems,
      );
    return pass(`${sitemap.url} lists ${sitemap.entries.length} pages of this site`);
  },

  async 'sitemap-lastmod'({ site }) {
    const entries = site.sitemap?.entries ?? [];
    if (entries.length === 0) return skip('no sitemap entries (see sitemap)');
    const without = entries.filter((entry) => entry.lastmod === undefined);
    const invalid = entries.filter(
      (entry) => entry.lastmod !== undefined && Number.isNaN(Date.parse(entry.lastmod)),
    );
    if (invalid.length > 0)
      return fail(
        `${invalid.length} <lastmod> value(s) are not W3C dates`,
        invalid.map((entry) => `${entry.loc}: ${entry.lastmod}`),
      );
    if (without.length > 0)
      return warn(
        `${without.length} of ${entries.length} sitemap entries have no <lastmod>`,
        without.slice(0, 5).map((entry) => entry.loc),
      );
    return pass(`every one of ${entries.length} sitemap entries has a <lastmod>`);
  },
};
