/**
 * The package as a new user installs and deploys it. The README's line, `npm install astro-agent-api
 * @astrojs/node`, run in a site on the lowest Astro of the package's peer range: npm gives the newest
 * adapter (@astrojs/node ≥ 11.1.3 calls an App method that Astro added in 7.2.3, so an older Astro stops
 * at start with `app.getLogger is not a function`), and the site builds and serves. A site pinned below
 * the range is refused at install, naming the peer, instead. Then the usual deploy: the project built with
 * `astro-agent-api publish` (a release folder, `dist` a link to it), moved whole to another folder (the
 * original path gone: its built entry still names it), and served: pages, twins, documents, search, MCP
 * and an endpoint rendered on demand all answer from the new place.
 */
import assert from 'node:assert/strict';
import {
  cp,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  childEnv,
  runCommand,
  startServerProcess,
  type ServerProcess,
} from '../helpers/child-process.ts';
import { LISTENING, packPackageOnce } from '../helpers/example-site.ts';
import { buildMcpRequest } from '../helpers/mcp-wire.ts';

type Json = Record<string, any>;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = 'https://blog.example.com';
const INSTALL = ['--prefer-offline', '--no-audit', '--no-fund'];

/** The lowest Astro the package's peer range admits: `^7.2.3` → `7.2.3`. */
async function lowestAstro(): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(ROOT, 'packages/astro-agent-api/package.json'), 'utf8'),
  ) as Json;
  const range = String(manifest.peerDependencies.astro);
  const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  assert.ok(lowest, `the peer range of astro is a caret range: ${range}`);
  return lowest;
}

/** examples/blog copied with Astro pinned at `astro` as its only dependency, as a site before the README's install line. */
async function siteOn(work: string, name: string, astro: string): Promise<string> {
  const root = join(work, name);
  await cp(join(ROOT, 'examples/blog'), root, {
    recursive: true,
    filter: (source) => !['node_modules', 'dist', '.astro'].includes(basename(source)),
  });
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Json;
  manifest.dependencies = { astro };
  await writeFile(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await runCommand('npm', ['install', ...INSTALL], { cwd: root });
  return root;
}

const versionIn = async (root: string, name: string) =>
  (JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as Json)
    .version as string;

let work: string;
let astro: string;
let builtAt: string;
let movedTo: string;
let server: ServerProcess;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-api-install-'));
  astro = await lowestAstro();
  const packed = await packPackageOnce();
  builtAt = await siteOn(join(work, 'ci'), 'blog', astro);
  // The README's line, with the tarball for the package's name.
  await runCommand('npm', ['install', packed.file, '@astrojs/node', ...INSTALL], { cwd: builtAt });
  await runCommand(
    process.execPath,
    [join(builtAt, 'node_modules/astro-agent-api/dist/cli.js'), 'publish'],
    { cwd: builtAt },
  );
  movedTo = join(work, 'server', 'srv', 'blog');
  await mkdir(join(work, 'server', 'srv'), { recursive: true });
  await rename(builtAt, movedTo);
  server = await startServerProcess(process.execPath, ['dist/server/entry.mjs'], {
    cwd: movedTo,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', AGENT_API_DATA_DIR: join(work, 'data') }),
    ready: LISTENING,
  });
});

after(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(`${server.url}${path}`, { headers });
  assert.equal(
    response.status,
    200,
    `${path} answered ${response.status}: ${(await response.clone().text()).slice(0, 200)}`,
  );
  return response;
}

describe('npm install astro-agent-api @astrojs/node on the lowest Astro of the peer range', () => {
  it('keeps that Astro and gets an adapter that starts with it', async () => {
    assert.equal(await versionIn(movedTo, 'astro'), astro);
    const adapter = await versionIn(movedTo, '@astrojs/node');
    assert.match(adapter, /^\d+\.\d+\.\d+$/);
    const home = await get('/');
    assert.match(await home.text(), /<html/);
  });

  it('is refused at install on an Astro below the range, naming the peer', async () => {
    const [major, minor, patch] = astro.split('.').map(Number) as [number, number, number];
    assert.ok(patch > 0, `no patch release below ${astro} to try`);
    const below = `${major}.${minor}.${patch - 1}`;
    const root = await siteOn(join(work, 'old'), 'blog', below);
    const packed = await packPackageOnce();
    await assert.rejects(
      runCommand('npm', ['install', packed.file, '@astrojs/node', ...INSTALL], { cwd: root }),
      (error: Error) => {
        assert.match(error.message, /ERESOLVE/);
        assert.match(
          error.message,
          new RegExp(`peer astro@"\\^${astro.replaceAll('.', '\\.')}" from astro-agent-api`),
        );
        return true;
      },
    );
    assert.equal(await versionIn(root, 'astro'), below, 'the refused install changed nothing');
  });
});

describe('a build moved whole to another folder', () => {
  it('was built in a release folder whose absolute path the server entry names, and that path is gone', async () => {
    const release = await readlink(join(movedTo, 'dist'));
    assert.match(release, /^\.dist-releases\/[\dTZ-]+$/, 'dist is a relative link to its release');
    const entry = await readFile(join(movedTo, 'dist/server/entry.mjs'), 'utf8');
    assert.ok(
      entry.includes(`${builtAt}/${release}/client/`),
      "Astro's manifest names the folder the build was made in",
    );
    await assert.rejects(stat(builtAt), { code: 'ENOENT' });
  });

  it('serves pages, twins and the documents', async () => {
    assert.match(await (await get('/posts/http-caching/')).text(), /<h1[^>]*>/);
    const twin = await get('/posts/http-caching.md');
    assert.match(twin.headers.get('content-type') ?? '', /^text\/markdown/);
    assert.match(await twin.text(), /^---\ntitle: /);
    const negotiated = await get('/posts/http-caching/', { Accept: 'text/markdown' });
    assert.match(negotiated.headers.get('content-type') ?? '', /^text\/markdown/);
    assert.match(
      await (await get('/llms.txt')).text(),
      new RegExp(`\\(${SITE}/posts/http-caching\\.md\\)`),
    );
    assert.match(await (await get('/llms-full.txt')).text(), /^# /);
    assert.equal(((await (await get('/openapi.json')).json()) as Json).openapi.slice(0, 4), '3.1.');
    await get('/agents.md');
    await get('/.well-known/api-catalog');
    await get('/pagefind/pagefind.js');
    assert.equal(
      ((await (await get('/api/hello')).json()) as Json).message !== undefined,
      true,
      'the endpoint rendered on demand answers',
    );
  });

  it('answers search, read_page and MCP from the moved build', async () => {
    const search = (await (await get('/api/v1/search_pages?query=caching')).json()) as Json;
    assert.ok(
      search.results.some((result: Json) => result.url === `${SITE}/posts/http-caching/`),
      JSON.stringify(search),
    );
    const page = (await (
      await get(`/api/v1/read_page?url=${encodeURIComponent('/posts/http-caching/')}`)
    ).json()) as Json;
    assert.match(page.markdown, /cach/i);
    const list = (await (
      await fetch(
        buildMcpRequest(`${server.url}/mcp`, { jsonrpc: '2.0', id: 1, method: 'resources/list' }),
      )
    ).json()) as Json;
    const uri = list.result.resources.find(
      (resource: Json) => resource.uri === `${SITE}/posts/http-caching/`,
    )?.uri;
    assert.ok(uri, JSON.stringify(list).slice(0, 400));
    const read = (await (
      await fetch(
        buildMcpRequest(`${server.url}/mcp`, {
          jsonrpc: '2.0',
          id: 2,
          method: 'resources/read',
          params: { uri },
        }),
      )
    ).json()) as Json;
    assert.match(read.result.contents[0].text, /cach/i);
  });
});
