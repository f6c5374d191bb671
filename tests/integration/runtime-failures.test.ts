/**
 * What the runtime does when a part of it fails: a build that cannot be loaded, a document that cannot
 * be read once, a store that cannot be opened, a start-time variable that is wrong. Each is said to the
 * operator once, through the runtime's logger, with its cause, and to the client as a JSON answer that
 * says what is wrong (a 503 where waiting or the site's owner fixes it); what does not depend on the
 * failing part keeps answering. Real builds on disk (as `astro build` writes the runtime folder), a
 * real sqlite store, a real closed port for Redis.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  buildManifest,
  writeManifest,
} from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import type { BuildFiles } from '../../packages/astro-agent-api/src/content/build-files.ts';
import {
  MANIFEST_FILE,
  RUNTIME_DIR,
  type BuiltManifest,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import { SERVER_INDEX_FILE } from '../../packages/astro-agent-api/src/content/server-index.ts';
import { createNodeBuildFiles } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { createAgentApi, type AgentApi } from '../../packages/astro-agent-api/src/runtime.ts';
import { createPortableAgentApi } from '../../packages/astro-agent-api/src/server/create-agent-api.ts';
import { readEnvironment } from '../../packages/astro-agent-api/src/environment.ts';
import { fetchOutboundOnNode } from '../../packages/astro-agent-api/src/hosts/node/node-outbound-fetch.ts';
import { openStore } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { findFreePort } from '../helpers/redis-server.ts';

type Json = Record<string, any>;

const SITE = 'https://failures.example.org';
const root = await mkdtemp(join(tmpdir(), 'agent-api-failures-'));
after(() => rm(root, { recursive: true, force: true }));
let folders = 0;

/** A build of a site without pages as `astro build` writes it (search index, texts, then the manifest), with its llms.txt. */
async function writeBuild(
  outDir: string,
  edit: (build: BuiltManifest) => BuiltManifest = (build) => build,
): Promise<void> {
  const options = parseAgentApiOptions({});
  const build = edit(
    buildManifest({
      site: SITE,
      options: resolveAgentApiOptions(options, { url: SITE, pageLanguages: [] }),
      pages: [],
    }),
  );
  await writeServerIndex(outDir, await buildServerIndexOfManifest(build));
  await writeManifest(outDir, build);
  await mkdir(join(outDir, 'client'), { recursive: true });
  await writeFile(join(outDir, 'client', 'llms.txt'), `# Failures\n\n> ${build.buildId}\n`);
}

/** A new folder for one test's build and store. */
async function newFolder(): Promise<string> {
  const folder = join(root, `case-${++folders}`);
  await mkdir(folder);
  return folder;
}

/** What the runtime told its operator. */
function createLogger() {
  const errors: { message: string; cause: unknown }[] = [];
  const warnings: string[] = [];
  return {
    errors,
    warnings,
    logger: {
      error: (message: string, cause?: unknown) => errors.push({ message, cause }),
      warn: (message: string) => warnings.push(message),
    },
  };
}

const request = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, init);
const get = (api: AgentApi, path: string) =>
  api.handle(request(path), { clientAddress: '192.0.2.1' });

async function expectJson(response: Response, status: number): Promise<Json> {
  const body = await response.text();
  assert.equal(response.status, status, body);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, body);
  return JSON.parse(body) as Json;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a build that cannot be loaded', () => {
  test('first load of a build of another version: logged once with its cause, and a 503 that says so (not "build the site")', async () => {
    const outDir = await newFolder();
    await writeBuild(outDir);
    const manifestPath = join(outDir, RUNTIME_DIR, MANIFEST_FILE);
    await writeFile(
      manifestPath,
      (await readFile(manifestPath, 'utf8')).replace(/"version":\s*\d+/, '"version": 1'),
    );
    const { logger, errors } = createLogger();
    const api = createAgentApi({
      outDir,
      env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
      logger,
    });
    after(() => api.close());

    for (let i = 0; i < 3; i++) {
      const body = await expectJson(await get(api, '/api/v1/search_pages?query=anything'), 503);
      assert.equal(body.code, 'build_unreadable');
      assert.match(body.message, /another version of astro-agent-api/);
      assert.doesNotMatch(JSON.stringify(body), /npm run build|not been built/);
    }
    const oauth = await expectJson(
      await api.handle(
        request('/oauth/token', { method: 'POST', body: 'grant_type=client_credentials' }),
        { clientAddress: '192.0.2.1' },
      ),
      503,
    );
    assert.equal(
      oauth.error,
      'temporarily_unavailable',
      'the OAuth endpoints answer in their own shape',
    );
    assert.equal(errors.length, 1, 'logged once, not per request');
    assert.match(errors[0]!.message, /cannot load the build/);
    assert.match(String(errors[0]!.cause), /manifest version 1/);
  });

  test('first load of a build whose search index is damaged: a 503 that says a file is damaged, the cause in the log', async () => {
    const outDir = await newFolder();
    await writeBuild(outDir);
    await writeFile(join(outDir, RUNTIME_DIR, SERVER_INDEX_FILE), 'not an index');
    const { logger, errors } = createLogger();
    const api = createAgentApi({
      outDir,
      env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
      logger,
    });
    after(() => api.close());

    const body = await expectJson(await get(api, '/api/v1/read_page?url=/'), 503);
    assert.equal(body.code, 'build_unreadable');
    assert.match(body.message, /missing, damaged or of another build/);
    assert.equal(errors.length, 1);
    assert.ok(errors[0]!.cause instanceof Error);
    await assert.rejects(api.ready(), 'a server does not start on it');
  });

  test('no build at all is still "not built"', async () => {
    const outDir = await newFolder();
    const { logger, errors } = createLogger();
    const api = createAgentApi({
      outDir,
      env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
      logger,
    });
    after(() => api.close());
    const body = await expectJson(await get(api, '/api/v1/search_pages?query=anything'), 503);
    assert.equal(body.code, 'not_built');
    assert.equal(errors.length, 0, 'nothing to log: the site is simply not built yet');
  });

  test('a new build that fails to load: the previous one keeps serving, the failure is logged once, not retried every second, and the next build loads', async () => {
    const outDir = await newFolder();
    await writeBuild(outDir, (build) => ({ ...build, buildId: 'first' }));
    const { logger, errors } = createLogger();
    // Read in place (not pinned to a release): every read of the index goes through the count.
    const { pin: _pin, ...files } = createNodeBuildFiles(outDir);
    let indexReads = 0;
    const counted: BuildFiles = {
      ...files,
      readRuntimeFile: (name) => {
        if (name === SERVER_INDEX_FILE) indexReads++;
        return files.readRuntimeFile(name);
      },
    };
    const env = { AGENT_API_DATA_DIR: join(outDir, 'data') };
    const api = createPortableAgentApi({
      environment: readEnvironment(env),
      files: counted,
      openStore: (settings) => openStore({ dataDir: settings.AGENT_API_DATA_DIR, settings }),
      fetchOutbound: fetchOutboundOnNode,
      logger,
    });
    after(() => api.close());
    const llms = async () => (await get(api, '/llms.txt')).text();
    assert.match(await llms(), /> first/);

    // A rebuild whose index is damaged: written before its manifest, as the build writes them.
    await writeFile(join(outDir, RUNTIME_DIR, SERVER_INDEX_FILE), 'not an index');
    await writeManifest(
      outDir,
      buildManifest({
        site: SITE,
        options: resolveAgentApiOptions(parseAgentApiOptions({}), { url: SITE, pageLanguages: [] }),
        pages: [],
      }),
    );
    const readsBefore = indexReads;
    const started = Date.now();
    while (Date.now() - started < 4_500) {
      const response = await get(api, '/api/v1/search_pages?query=anything');
      assert.equal(response.status, 200, 'the previous build answers');
      await response.arrayBuffer();
      await sleep(100);
    }
    const retries = indexReads - readsBefore;
    // One load when the manifest changed, then tries at 1, 2 (and perhaps 4) s: a retry every second would be 4 or more.
    assert.ok(retries >= 1 && retries <= 3, `the damaged build was read ${retries} times in 4.5 s`);
    assert.equal(errors.length, 1, 'logged once');
    assert.match(errors[0]!.message, /previous build keeps serving/);

    await writeBuild(outDir, (build) => ({ ...build, buildId: 'third' }));
    await sleep(1_100);
    assert.match(await llms(), /> third/, 'the next build loads as soon as its manifest lands');
  });
});

describe('a document that cannot be read once', () => {
  test('is not remembered as missing: the next request serves it', async () => {
    const outDir = await newFolder();
    await writeBuild(outDir, (build) => ({ ...build, buildId: 'docs' }));
    const file = join(outDir, 'client', 'llms.txt');
    const text = await readFile(file, 'utf8');
    // A read that fails for another reason than a missing file (here: a folder where the file was).
    await rm(file);
    await mkdir(file);
    const { logger } = createLogger();
    const api = createAgentApi({
      outDir,
      env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
      logger,
    });
    after(() => api.close());
    const failed = await get(api, '/llms.txt');
    assert.notEqual(failed.status, 200);
    assert.notEqual(failed.status, 404, 'a read that failed is not "nothing is published here"');
    await failed.arrayBuffer();

    await rm(file, { recursive: true });
    await writeFile(file, text);
    const served = await get(api, '/llms.txt');
    assert.equal(served.status, 200);
    assert.equal(await served.text(), text);
  });
});

describe('a store that cannot be opened', () => {
  test('Redis unreachable at first use: what needs it answers 503 in its own shape, the documents 200, the cause logged once', async () => {
    const outDir = await newFolder();
    await writeBuild(outDir);
    const port = await findFreePort();
    const { logger, errors } = createLogger();
    const api = createAgentApi({
      outDir,
      env: { REDIS_URL: `redis://127.0.0.1:${port}/0` },
      logger,
    });
    after(() => api.close());

    for (let i = 0; i < 3; i++) {
      const body = await expectJson(await get(api, '/api/v1/search_pages?query=anything'), 503);
      assert.equal(body.code, 'temporarily_unavailable');
    }
    const token = await api.handle(
      request('/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=a&client_secret=b',
      }),
      { clientAddress: '192.0.2.1' },
    );
    assert.equal((await expectJson(token, 503)).error, 'temporarily_unavailable');
    assert.ok(Number(token.headers.get('retry-after')) > 0);
    assert.equal((await get(api, '/llms.txt')).status, 200, 'a document needs no store');
    assert.equal(errors.length, 1, 'logged once, not per request');
    assert.match(String(errors[0]!.cause), /Cannot reach Redis at redis:\/\/127\.0\.0\.1/);
    await assert.rejects(
      api.ready(),
      /Cannot reach Redis/,
      'a server still refuses to start without it',
    );
  });
});

describe('a start-time variable that is wrong', () => {
  test('every agent path answers 503 naming the variable and the fix; the twins and page headers keep working; logged once', async () => {
    const outDir = await newFolder();
    await writeBuild(outDir);
    const { logger, errors } = createLogger();
    const api = createAgentApi({
      outDir,
      env: { AGENT_API_DATA_DIR: join(outDir, 'data'), AGENT_API_QUOTA_ANONYMOUS: 'lots' },
      logger,
    });
    after(() => api.close());

    for (const path of [
      '/api/v1/search_pages?query=anything',
      '/llms.txt',
      '/.well-known/oauth-authorization-server',
    ]) {
      const body = await expectJson(await get(api, path), 503);
      assert.equal(body.code, 'misconfigured', path);
      assert.match(body.message, /AGENT_API_QUOTA_ANONYMOUS/);
      assert.match(body.data.hint, /must be a whole number of requests per window/);
      assert.doesNotMatch(JSON.stringify(body), /lots/, 'the value stays in the log');
    }
    const page = await api.answer(new Request('http://localhost/'), { clientAddress: '192.0.2.1' });
    assert.ok(
      page.kind === 'page' && page.headers.Link === undefined,
      'a page without a twin gets its headers',
    );
    await assert.rejects(api.ready(), /AGENT_API_QUOTA_ANONYMOUS must be/);
    assert.equal(errors.length, 1, 'logged once');
    assert.match(errors[0]!.message, /AGENT_API_QUOTA_ANONYMOUS must be .* but it is "lots"/);
  });
});
