/**
 * Moved URLs (package README, "What counts as a page"): an address the site redirects — its
 * `redirects`, its `_redirects` file, a page that forwards with a meta refresh or a canonical link —
 * reads the page the redirects lead to, saying so, up to LIMITS.redirectHops redirects; a loop, a
 * longer chain, a redirect off the site or to nothing is a clear 404, never a hang.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { ApiError } from '../../packages/astro-agent-api/src/contract/api-error.ts';
import type { ContentSnapshot } from '../../packages/astro-agent-api/src/content/content-model.ts';
import type {
  LeftOutPage,
  ManifestPage,
  RedirectRule,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  buildPageIndex,
  resolveAddress,
  resolveRequest,
} from '../../packages/astro-agent-api/src/content/resolve-page.ts';
import {
  compileRoutePattern,
  fillRoutePattern,
} from '../../packages/astro-agent-api/src/content/route-pattern.ts';
import { LIMITS } from '../../packages/astro-agent-api/src/contract/limits.ts';
import type { OperationContext } from '../../packages/astro-agent-api/src/operations/operation.ts';
import { createReadPage } from '../../packages/astro-agent-api/src/operations/read-page.ts';
import { parseOperationInput } from '../../packages/astro-agent-api/src/server/parse-input.ts';
import { createSiteUrls } from '../../packages/astro-agent-api/src/contract/site-urls.ts';
import { buildTestPage } from '../helpers/built-page.ts';
import { writeTestPageTexts } from '../helpers/page-texts.ts';

const SITE = 'https://docs.example';
const urls = createSiteUrls(SITE);
const page = (path: string, language = 'en'): ManifestPage => ({
  url: new URL(path, SITE).href,
  path,
  title: path,
  language,
  facets: {},
  sections: [{ id: 'reporter-flags', title: 'Reporter flags', level: 2, offset: 0, length: 1 }],
  twin: { file: 0, offset: 0, length: 0, frontMatterLength: 0, textLength: 0 },
});
const rule = (
  from: string,
  to: string,
  source: RedirectRule['source'] = 'redirects',
): RedirectRule => ({ from, to, source });

const PAGES = [
  '/',
  '/guides/start/',
  '/posts/hello/',
  '/posts/world/',
  '/reference/cli/',
  '/fr/guides/start/',
  '/fr/old-guide/',
].map((path) => page(path, path.startsWith('/fr/') ? 'fr' : 'en'));
const REDIRECTS = [
  rule('/old-guide', '/guides/start'),
  rule('/older-guide', '/old-guide'),
  rule('/blog/[slug]', '/posts/[slug]'),
  rule('/archive/[...path]', '/posts/[...path]'),
  rule('/loop-a', '/loop-b'),
  rule('/loop-b', '/loop-a'),
  rule('/self', '/self'),
  rule('/cli-flags', '/reference/cli/#reporter-flags'),
  rule('/discord', 'https://discord.example.com/invite'),
  rule('/nowhere', '/not-built/'),
  rule('/to-private', '/private/'),
  rule('/es/guides/start', '/guides/start', 'refresh'),
  rule('/pl/guides/start', `${SITE}/guides/start/`, 'refresh'),
  rule('/print/guide', `${SITE}/guides/start/`, 'canonical'),
  rule('/forum/[...splat]', '/posts/[...splat]', 'redirects-file'),
];
const LEFT_OUT: LeftOutPage[] = [
  { path: '/private/', reason: 'noindex' },
  { path: '/playground/', reason: 'empty' },
];
const index = buildPageIndex(PAGES, urls, 'en', { redirects: REDIRECTS, leftOut: LEFT_OUT });
const resolve = (input: string) => resolveAddress(index, input);

describe('route patterns in Astro syntax', () => {
  it('match routes and fill targets, a rest parameter taking zero or more segments', () => {
    assert.deepEqual(compileRoutePattern('/blog/[slug]/').match('/blog/hello'), { slug: 'hello' });
    assert.equal(compileRoutePattern('/blog/[slug]').match('/blog/a/b'), undefined);
    assert.deepEqual(compileRoutePattern('/docs/[...path]').match('/docs/a/b'), { path: 'a/b' });
    assert.deepEqual(compileRoutePattern('/docs/[...path]').match('/docs'), { path: '' });
    assert.deepEqual(compileRoutePattern('/[lang]-[slug]').match('/en-intro'), {
      lang: 'en',
      slug: 'intro',
    });
    assert.equal(compileRoutePattern('/a.b').match('/aXb'), undefined, 'a dot is a dot');
    assert.equal(fillRoutePattern('/posts/[slug]/', { slug: 'hello' }), '/posts/hello/');
    assert.equal(fillRoutePattern('/docs/[...path]', { path: '' }), '/docs');
  });
});

describe('an address the site redirects', () => {
  it('reads the page it leads to, saying which address was asked, from a path, a full URL, its twin or its slug', () => {
    for (const input of [
      '/old-guide',
      '/old-guide/',
      `${SITE}/old-guide/`,
      'http://www.docs.example/old-guide',
      '/old-guide.md',
    ]) {
      const found = resolve(input);
      assert.ok(found && 'page' in found, input);
      assert.equal(found.page.path, '/guides/start/', input);
      assert.equal(found.redirectedFrom, `${SITE}/old-guide/`, input);
    }
  });

  it('follows chains, dynamic routes, rest parameters, stub and canonical pages and the _redirects file', () => {
    const cases: [string, string, string][] = [
      ['/older-guide/', '/guides/start/', `${SITE}/older-guide/`],
      ['/blog/hello/', '/posts/hello/', `${SITE}/blog/hello/`],
      ['/archive/world', '/posts/world/', `${SITE}/archive/world/`],
      ['/es/guides/start/', '/guides/start/', `${SITE}/es/guides/start/`],
      ['/print/guide/', '/guides/start/', `${SITE}/print/guide/`],
      ['/forum/hello', '/posts/hello/', `${SITE}/forum/hello/`],
      ['blog/world', '/posts/world/', `${SITE}/blog/world/`],
    ];
    for (const [input, path, from] of cases) {
      const found = resolve(input);
      assert.ok(found && 'page' in found, input);
      assert.deepEqual([found.page.path, found.redirectedFrom], [path, from], input);
    }
  });

  it('reads a slug of a redirected address when no page ends with it, a page that does first', () => {
    const slug = resolve('older-guide');
    assert.ok(slug && 'page' in slug);
    assert.deepEqual(
      [slug.page.path, slug.redirectedFrom],
      ['/guides/start/', `${SITE}/older-guide/`],
    );
    const page = resolve('old-guide');
    assert.ok(page && 'page' in page);
    assert.deepEqual(
      [page.page.path, page.redirectedFrom],
      ['/fr/old-guide/', undefined],
      'the page /fr/old-guide/ ends with it',
    );
  });

  it('follows the redirect of an address before reading it as a path without its locale', () => {
    const found = resolve('/old-guide/');
    assert.ok(found && 'page' in found);
    assert.equal(found.page.path, '/guides/start/', 'not /fr/old-guide/');
  });

  it('reports the fragment the redirect names', () => {
    const found = resolve('/cli-flags');
    assert.ok(found && 'page' in found);
    assert.deepEqual([found.page.path, found.fragment], ['/reference/cli/', 'reporter-flags']);
  });

  it('reads one page from a slug that several redirected addresses end, leading to one page', () => {
    const found = resolve('guides/start');
    assert.ok(found && 'page' in found);
    assert.equal(found.page.path, '/guides/start/', 'the page itself');
    assert.equal(found.redirectedFrom, undefined);
  });

  it('tells a loop, a chain too long, another site, a target that is no page and a page left out apart', () => {
    assert.deepEqual(resolve('/loop-a'), {
      unresolved: {
        kind: 'loop',
        chain: [`${SITE}/loop-a/`, `${SITE}/loop-b/`, `${SITE}/loop-a/`],
      },
    });
    assert.deepEqual(resolve('/self'), {
      unresolved: { kind: 'loop', chain: [`${SITE}/self/`, `${SITE}/self/`] },
    });
    assert.deepEqual(resolve('/discord'), {
      unresolved: {
        kind: 'off-site',
        from: `${SITE}/discord/`,
        location: 'https://discord.example.com/invite',
      },
    });
    assert.deepEqual(resolve('/nowhere'), {
      unresolved: { kind: 'missing', from: `${SITE}/nowhere/`, location: `${SITE}/not-built/` },
    });
    assert.deepEqual(resolve('/private/'), {
      unresolved: { kind: 'not-content', url: `${SITE}/private/`, reason: 'noindex' },
    });
    assert.deepEqual(resolve('/to-private'), {
      unresolved: { kind: 'not-content', url: `${SITE}/private/`, reason: 'noindex' },
    });
    assert.equal(resolve('/never-heard-of'), undefined);
  });

  it(`follows any chain of up to ${LIMITS.redirectHops} redirects, and stops at a longer one or a cycle (property)`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: LIMITS.redirectHops + 5 }),
        fc.option(fc.nat(30)),
        (length, cycleTo) => {
          const hops = Array.from({ length }, (_, i) => rule(`/hop-${i}`, `/hop-${i + 1}`));
          const closing =
            cycleTo !== null && cycleTo < length
              ? rule(`/hop-${length}`, `/hop-${cycleTo}`)
              : rule(`/hop-${length}`, '/guides/start/');
          const chain = buildPageIndex(PAGES, urls, 'en', { redirects: [...hops, closing] });
          const found = resolveAddress(chain, '/hop-0');
          const followed = length + 1;
          if (cycleTo !== null && cycleTo < length) {
            assert.ok(
              found &&
                'unresolved' in found &&
                ['loop', 'too-many'].includes(found.unresolved.kind),
              JSON.stringify(found),
            );
          } else if (followed <= LIMITS.redirectHops) {
            assert.ok(found && 'page' in found, `${followed} redirects`);
            assert.equal(found.page.path, '/guides/start/');
          } else {
            assert.ok(found && 'unresolved' in found && found.unresolved.kind === 'too-many');
            assert.equal(found.unresolved.chain.length, LIMITS.redirectHops + 1);
          }
        },
      ),
    );
  });

  it('answers a request for the twin or the page of a redirected address with the target (the twins and Accept: text/markdown)', () => {
    assert.deepEqual(resolveRequest(index, '/blog/hello.md'), {
      page: index.byRoute.get('/posts/hello'),
      twin: true,
      redirectedFrom: `${SITE}/blog/hello/`,
    });
    assert.deepEqual(resolveRequest(index, '/cli-flags/'), {
      page: index.byRoute.get('/reference/cli'),
      twin: false,
      redirectedFrom: `${SITE}/cli-flags/`,
      fragment: 'reporter-flags',
    });
    assert.equal(resolveRequest(index, '/loop-a.md'), undefined);
    assert.equal(resolveRequest(index, '/private.md'), undefined);
  });
});

describe('read_page of a moved address', async () => {
  const built = [
    buildTestPage(SITE, '/guides/start/', {
      title: 'Start',
      language: 'en',
      markdown: '# Start\n\nInstall it.\n',
    }),
    buildTestPage(SITE, '/reference/cli/', {
      title: 'CLI',
      language: 'en',
      markdown: '# CLI\n\n## Reporter flags\n\n`--reporter`\n',
    }),
  ].map((one) => ({
    ...one,
    sections:
      one.path === '/reference/cli/'
        ? [{ id: 'reporter-flags', title: 'Reporter flags', level: 2, offset: 7, length: 33 }]
        : [],
  }));
  const written = await writeTestPageTexts(built);
  after(() => written.remove());
  const content = {
    pages: buildPageIndex(written.pages, urls, 'en', { redirects: REDIRECTS, leftOut: LEFT_OUT }),
    texts: written.texts,
  } as unknown as ContentSnapshot;
  const readPage = createReadPage({ truncateAt: 1_000, languages: ['en'] });
  const read = (args: Record<string, unknown>) =>
    readPage.handle(parseOperationInput(readPage, args) as never, { content } as OperationContext);
  const refused = async (url: string) => {
    try {
      await read({ url });
    } catch (error) {
      assert.ok(error instanceof ApiError);
      return error;
    }
    assert.fail(`${url} was answered`);
  };

  it('answers the target with redirected_from, and the fragment the redirect names, in the output schema', async () => {
    const answer = await read({ url: '/older-guide/' });
    assert.equal(answer.url, `${SITE}/guides/start/`);
    assert.equal(answer.redirected_from, `${SITE}/older-guide/`);
    assert.equal(answer.markdown, '# Start\n\nInstall it.\n');
    const cli = await read({ url: 'https://docs.example/cli-flags' });
    assert.deepEqual(
      [cli.url, cli.redirected_from, cli.fragment],
      [`${SITE}/reference/cli/`, `${SITE}/cli-flags/`, 'reporter-flags'],
    );
    assert.ok(readPage.output.safeParse(cli).success);
    assert.ok('redirected_from' in readPage.output.shape && 'fragment' in readPage.output.shape);
    const direct = await read({ url: '/guides/start/' });
    assert.deepEqual(
      [direct.redirected_from, direct.fragment],
      [null, null],
      'a page read at its own address names no redirect',
    );
    assert.equal(answer.fragment, null);
  });

  it('keys the memo of a redirected answer apart from the page read directly', () => {
    const key = (url: string) =>
      readPage.buildKey!(parseOperationInput(readPage, { url }) as never, content);
    assert.notEqual(key('/old-guide'), key('/guides/start/'));
    assert.equal(key('/old-guide'), key(`${SITE}/old-guide/`));
  });

  it('answers a loop, a chain off the site and a page left out with a 404 that says why', async () => {
    const loop = await refused('/loop-a');
    assert.deepEqual([loop.status, loop.code], [404, 'redirect_loop']);
    assert.match(
      loop.message,
      /loop-a\/ → https:\/\/docs\.example\/loop-b\/ → https:\/\/docs\.example\/loop-a\//,
    );
    const away = await refused('/discord');
    assert.deepEqual([away.status, away.code], [404, 'redirected_off_site']);
    assert.match(away.hint, /https:\/\/discord\.example\.com\/invite/);
    const missing = await refused('/nowhere');
    assert.deepEqual(
      [missing.code, missing.message],
      [
        'page_not_found',
        `The site redirects ${SITE}/nowhere/ to ${SITE}/not-built/, which is no page of this site that the API reads.`,
      ],
    );
    const hidden = await refused('/private/');
    assert.equal(hidden.code, 'page_not_found');
    assert.match(hidden.message, /not to be indexed \(robots noindex\)/);
    assert.match((await refused('/playground/')).message, /no text beyond its title/);
  });
});
