/**
 * On Netlify a prerendered page's address is a file of the CDN: the build's Edge Function decides which
 * requests get the page's twin and rewrites them to the twin's address, where the site's function
 * answers them as the page's (hosts/netlify/). Everywhere else the runtime decides and answers at once.
 * Over the demo's build, with its real runtime, for generated Accept headers on its pages and on
 * addresses the site redirects (the demo has none: the build's manifest gets redirects of every kind,
 * and a page left out, before the runtime reads it): a request whose Accept names text/markdown or
 * text/plain (what Netlify runs the function on) gets the answer the runtime gives on Node, byte for
 * byte and header for header; any other gets the page.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import {
  createMarkdownEdgeFunction,
  type MarkdownEdgeFunction,
} from '../../packages/astro-agent-api/src/hosts/netlify/markdown-edge-function.ts';
import { writeMarkdownEdgeFunction } from '../../packages/astro-agent-api/src/hosts/netlify/write-edge-function.ts';
import {
  createNetlifyFront,
  type NetlifyHandler,
} from '../../packages/astro-agent-api/src/hosts/netlify/netlify-front.ts';
import { TEXT_FORMS_ACCEPT_PATTERN } from '../../packages/astro-agent-api/src/contract/media-types.ts';
import {
  createAgentApi,
  createAgentFront,
  type AgentApi,
  type AgentFront,
} from '../../packages/astro-agent-api/src/runtime.ts';
import type {
  Manifest,
  RedirectRule,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import { createSiteUrls } from '../../packages/astro-agent-api/src/contract/site-urls.ts';
import { buildSite } from '../helpers/build-site.ts';

/** What the CDN or the site answers a page's address with: its HTML file. */
const PAGE = '<!doctype html><html lang="es"><title>página</title><h1>página</h1></html>';
const sitePage = async () =>
  new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
/** The headers of a Markdown answer that the client sees and caches by. */
const MARKDOWN_HEADERS = [
  'content-type',
  'vary',
  'etag',
  'link',
  'content-location',
  'content-signal',
  'x-markdown-tokens',
  'cache-control',
  'content-length',
];
const client = { clientAddress: '192.0.2.7' };

let api: AgentApi;
let front: AgentFront;
let edge: MarkdownEdgeFunction;
let netlifyFunction: NetlifyHandler;
let dataDir: string;
let site: string;
let paths: string[];
/** Served paths of the routes the site redirects, and of the page left out. */
let redirected: string[];

/**
 * Redirects of each kind resolveRequest tells apart, over the demo's pages: to a page, through another
 * redirect, with a fragment, by a pattern, from a page's own address (the page wins), in a loop, off
 * the site, to no page and to the page that is not content.
 */
function redirectsOver(routes: string[]): { redirects: RedirectRule[]; leftOut: string } {
  const [first, second, third] = routes.filter((route) => route !== '/');
  const rule = (from: string, to: string): RedirectRule => ({ from, to, source: 'redirects' });
  return {
    leftOut: '/privado/',
    redirects: [
      rule('/antiguo', first!),
      rule('/cadena', '/antiguo'),
      rule('/con-ancla', `${second}#seccion`),
      rule('/viejo/[...path]', '/[...path]'),
      rule(third!, first!),
      rule('/bucle-a', '/bucle-b'),
      rule('/bucle-b', '/bucle-a'),
      rule('/fuera', 'https://example.com/otra'),
      rule('/perdido', '/no-existe'),
      rule('/a-privado', '/privado'),
    ],
  };
}

before(async () => {
  const built = await buildSite();
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-netlify-edge-'));
  // The build's runtime files, its manifest with the redirects: what a build of a site that has them writes.
  const outDir = join(dataDir, 'dist');
  await cp(join(built.outDir, 'agent-api'), join(outDir, 'agent-api'), { recursive: true });
  const manifestFile = join(outDir, 'agent-api/manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  site = manifest.site;
  paths = [...manifest.pages, ...manifest.copies].map((page) => page.path);
  const urls = createSiteUrls(site, manifest.routing);
  const { redirects, leftOut } = redirectsOver(paths.map((path) => urls.routeOf(path)));
  manifest.redirects = redirects;
  manifest.leftOut = [{ path: leftOut, reason: 'noindex' }];
  await writeFile(manifestFile, JSON.stringify(manifest));
  redirected = [
    ...redirects.map((redirect) =>
      redirect.from.includes('[') ? `/viejo${urls.routeOf(paths.at(-1)!)}/` : `${redirect.from}/`,
    ),
    leftOut,
  ];
  api = createAgentApi({ outDir, env: { AGENT_API_DATA_DIR: dataDir } });
  front = createAgentFront(api);
  edge = createMarkdownEdgeFunction({ site, routing: manifest.routing, paths, redirects });
  // The site's function: a twin's address that no page names is the adapter's 404.
  netlifyFunction = createNetlifyFront(
    front,
    async () => new Response('Not found', { status: 404 }),
  );
});
after(async () => {
  await api?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Node, Workers: the one front, then the site's page. */
const onNode = (request: Request) => front.fetch(request, client, sitePage);

/**
 * Netlify: its edge runs the function on the requests its declaration names (GET or HEAD, an Accept
 * naming a text form: write-edge-function.ts); a rewrite goes to the site's function, anything else to
 * the page's file.
 */
async function onNetlify(request: Request): Promise<Response> {
  const declared =
    ['GET', 'HEAD'].includes(request.method) &&
    new RegExp(TEXT_FORMS_ACCEPT_PATTERN).test(request.headers.get('Accept') ?? '');
  const rewritten = declared ? edge(request) : undefined;
  return rewritten
    ? netlifyFunction(new Request(rewritten, request), { ip: client.clientAddress })
    : sitePage();
}

const mediaRange = fc.constantFrom(
  'text/html',
  'text/markdown',
  'text/plain',
  'text/*',
  '*/*',
  'application/xhtml+xml',
  'application/json',
  'text/x-markdown',
  'Text/Markdown',
  'TEXT/PLAIN',
  'image/webp',
);
const quality = fc.option(fc.constantFrom('0', '0.001', '0.1', '0.5', '0.9', '1', '1.0'), {
  nil: undefined,
});
const acceptHeader = fc
  .array(fc.tuple(mediaRange, quality), { maxLength: 5 })
  .map((ranges) =>
    ranges.map(([range, q]) => (q === undefined ? range : `${range};q=${q}`)).join(', '),
  );

test("for any Accept naming a text form, Netlify's Edge Function and function answer a page's address, or one the site redirects, as the runtime does on Node", async () => {
  const pageAddress = fc
    .tuple(
      fc.oneof(fc.constantFrom(...paths), fc.constantFrom(...redirected)),
      fc.constantFrom('', 'no slash', 'index.html'),
    )
    .map(([path, form]) =>
      form === '' || !path.endsWith('/')
        ? path
        : form === 'no slash' && path !== '/'
          ? path.slice(0, -1)
          : `${path}index.html`,
    );
  let textForms = 0;
  let followed = 0;
  await fc.assert(
    fc.asyncProperty(
      pageAddress,
      acceptHeader,
      fc.constantFrom('GET', 'HEAD'),
      async (path, accept, method) => {
        const request = () =>
          new Request(new URL(path, site), {
            method,
            headers: accept === '' ? {} : { Accept: accept },
          });
        const [node, netlify] = await Promise.all([onNode(request()), onNetlify(request())]);
        const named = new RegExp(TEXT_FORMS_ACCEPT_PATTERN).test(accept);
        if (!named) {
          // Netlify's edge leaves the request to the CDN: the page, whatever a wildcard ranks.
          assert.equal(netlify.headers.get('content-type'), 'text/html; charset=utf-8');
          await Promise.all([node.arrayBuffer(), netlify.arrayBuffer()]);
          return;
        }
        const asked = `${method} ${path} Accept: ${accept}`;
        assert.equal(netlify.status, node.status, asked);
        // The page's own headers come from `_headers` on Netlify: the body and its type are compared.
        const headers = node.headers.get('content-type')?.startsWith('text/html')
          ? ['content-type']
          : MARKDOWN_HEADERS;
        if (headers === MARKDOWN_HEADERS) textForms++;
        if (node.headers.has('content-location')) followed++;
        for (const name of headers)
          assert.equal(netlify.headers.get(name), node.headers.get(name), `${name} of ${asked}`);
        assert.equal(await netlify.text(), await node.text(), asked);
      },
    ),
    { numRuns: 300 },
  );
  assert.ok(textForms > 30, `${textForms} of 300 generated requests got a text form`);
  assert.ok(
    followed >= 3,
    `${followed} of 300 generated requests got the twin of a redirect's target`,
  );
});

test("a twin's address, a path of no page and a request that is not GET or HEAD are left to the site", () => {
  const twin = new URL(paths.find((path) => path !== '/')!.replace(/\/$/, '.md'), site);
  for (const request of [
    new Request(twin, { headers: { Accept: 'text/markdown' } }),
    new Request(new URL('/no-such-page/', site), { headers: { Accept: 'text/markdown' } }),
    new Request(new URL('/llms.txt', site), { headers: { Accept: 'text/plain' } }),
    new Request(new URL(paths[0]!, site), {
      method: 'POST',
      headers: { Accept: 'text/markdown' },
      body: 'x',
    }),
  ]) {
    assert.equal(edge(request), undefined, `${request.method} ${request.url}`);
    assert.equal(request.headers.get('x-agent-api-page'), null);
  }
});

test('the module the build writes holds the negotiation, the pages and the redirects, and imports nothing but built-in modules', async () => {
  const root = await mkdtemp(join(tmpdir(), 'agent-api-edge-module-'));
  try {
    const manifest = {
      site: 'https://example.org',
      routing: { base: '/docs', trailingSlash: 'never', format: 'directory' },
      paths: ['/docs', '/docs/guías/inicio'],
      redirects: [{ from: '/primeros-pasos', to: '/guías/inicio', source: 'redirects' }],
    } as const;
    const { file, bytes } = await writeMarkdownEdgeFunction(root, manifest);
    assert.equal(
      file,
      join(
        root,
        '.netlify/v1/edge-functions/astro-agent-api-markdown/astro-agent-api-markdown.mjs',
      ),
    );
    const code = await readFile(file, 'utf8');
    assert.equal(Buffer.byteLength(code), bytes);
    const imports = [...code.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map(
      (match) => match[1]!,
    );
    assert.ok(
      imports.every((specifier) => specifier.startsWith('node:')),
      imports.join(', '),
    );
    const module = (await import(pathToFileURL(file).href)) as {
      default: MarkdownEdgeFunction;
      config: Record<string, unknown>;
    };
    assert.deepEqual(module.config.method, ['GET', 'HEAD']);
    assert.deepEqual(module.config.header, { accept: TEXT_FORMS_ACCEPT_PATTERN });
    const asked = new Request('https://example.org/docs/gu%C3%ADas/inicio?x=1', {
      headers: { Accept: 'text/plain, text/html;q=0.9' },
    });
    assert.equal(module.default(asked)?.href, 'https://example.org/docs/gu%C3%ADas/inicio.md?x=1');
    assert.equal(asked.headers.get('x-agent-api-page'), '/docs/gu%C3%ADas/inicio');
    assert.equal(
      module.default(
        new Request('https://example.org/docs', { headers: { Accept: 'text/markdown' } }),
      )?.pathname,
      '/docs/index.md',
    );
    assert.equal(
      module.default(
        new Request('https://example.org/docs/otra', { headers: { Accept: 'text/markdown' } }),
      ),
      undefined,
    );
    // The function follows the redirect from the twin of the address asked for, as the runtime does there.
    const moved = new Request('https://example.org/docs/primeros-pasos', {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(module.default(moved)?.pathname, '/docs/primeros-pasos.md');
    assert.equal(moved.headers.get('x-agent-api-page'), '/docs/primeros-pasos');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
