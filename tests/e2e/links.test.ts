import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { extractIds, extractLinks } from './support/site-pages.ts';
import { openTarget, readSitemap, type Target } from './support/target.ts';

let target: Target;
before(async () => {
  target = await openTarget();
});
after(() => target?.close());

const CONCURRENCY = 16;

interface Visit {
  status: number;
  location: string | null;
  ids?: Set<string>;
}

test('every internal link reachable from the home page and the sitemap answers 200', {
  timeout: 180_000,
}, async (t) => {
  const started = performance.now();
  const sitemap = await readSitemap(target);
  assert.ok(sitemap.length > 0, 'the sitemap lists no page');

  /** Target URL (no fragment) → where it was first linked from. */
  const referrers = new Map<string, string>();
  const visits = new Map<string, Visit>();
  const fragments: { url: string; fragment: string; from: string }[] = [];
  const queue: string[] = [];
  let linkCount = 0;
  let externalCount = 0;

  const enqueue = (href: string, from: string, base = from): void => {
    if (/^(mailto|tel|sms|javascript|data):/i.test(href)) {
      externalCount++;
      return;
    }
    const url = target.toTarget(new URL(href, base));
    if (!url) {
      externalCount++;
      return;
    }
    linkCount++;
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    if (fragment) fragments.push({ url: url.href, fragment, from });
    if (referrers.has(url.href)) return;
    referrers.set(url.href, from);
    queue.push(url.href);
  };

  const visit = async (url: string): Promise<void> => {
    const response = await fetch(url, { redirect: 'manual' });
    const visited: Visit = { status: response.status, location: response.headers.get('location') };
    visits.set(url, visited);
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.startsWith('text/html')) {
      await response.body?.cancel();
      return;
    }
    const html = await response.text();
    visited.ids = extractIds(html);
    for (const link of extractLinks(html)) enqueue(link.href, url);
  };

  enqueue('/', 'the start', `${target.baseUrl}/`);
  for (const page of sitemap) enqueue(page, 'the sitemap', `${target.baseUrl}/`);

  // A fixed pool of workers drains the queue, which grows as pages are parsed.
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      if (queue.length === 0 && active === 0) {
        resolve();
        return;
      }
      while (active < CONCURRENCY && queue.length > 0) {
        const url = queue.shift()!;
        active++;
        visit(url)
          .catch((error: unknown) => visits.set(url, { status: 0, location: String(error) }))
          .finally(() => {
            active--;
            pump();
          });
      }
    };
    pump();
  });

  const broken = [...visits]
    .filter(([, visited]) => visited.status !== 200)
    .map(
      ([url, visited]) =>
        `${url} → ${visited.status || 'network error'}${visited.location ? ` (${visited.location})` : ''}, linked from ${referrers.get(url)}`,
    );
  const missingAnchors = fragments
    .filter(({ url, fragment }) => {
      const ids = visits.get(url)?.ids;
      return ids !== undefined && !ids.has(fragment);
    })
    .map(
      ({ url, fragment, from }) =>
        `${url}#${fragment} has no element with that id, linked from ${from}`,
    );
  const uniqueMissing = [...new Set(missingAnchors)];

  const pages = [...visits.values()].filter((visited) => visited.ids).length;
  const sitemapMissing = sitemap.filter((page) => !visits.get(target.toTarget(page)!.href)?.ids);
  t.diagnostic(
    `crawled ${pages} HTML pages (sitemap lists ${sitemap.length}); checked ${visits.size} distinct internal URLs ` +
      `from ${linkCount} internal links; ${externalCount} external/mailto/tel links not followed; ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  assert.deepEqual(
    broken,
    [],
    `${broken.length} internal links do not answer 200:\n${broken.join('\n')}`,
  );
  assert.deepEqual(
    uniqueMissing,
    [],
    `${uniqueMissing.length} links point to a missing anchor:\n${uniqueMissing.join('\n')}`,
  );
  assert.deepEqual(sitemapMissing, [], 'every sitemap entry is an HTML page');
});
