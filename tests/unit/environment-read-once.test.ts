/**
 * The environment is read once, by the host, into typed settings that the runtime carries to its
 * store, its limits and its recorders: a runtime that starts, answers and counts reads each variable
 * of the environment exactly once, whatever it does with it after.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createTrafficRecorder } from '../../packages/astro-agent-api/src/analytics/traffic-recorder.ts';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  buildManifest,
  writeManifest,
} from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import { environmentSchema } from '../../packages/astro-agent-api/src/environment.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { createAgentApi } from '../../packages/astro-agent-api/src/runtime.ts';
import { SQLITE_FILE_NAME } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { existsSync } from 'node:fs';

const SITE = 'https://docs.example.org';

test('a runtime that starts, answers and counts reads each variable of its environment once', async () => {
  const outDir = await mkdtemp(join(tmpdir(), 'agent-api-environment-'));
  after(() => rm(outDir, { recursive: true, force: true }));
  const options = parseAgentApiOptions({});
  const manifest = buildManifest({
    site: SITE,
    options: resolveAgentApiOptions(options, { url: SITE, pageLanguages: [] }),
    company: options.company,
    pages: [],
  });
  await writeServerIndex(outDir, await buildServerIndexOfManifest(manifest));
  await writeManifest(outDir, manifest);

  const reads = new Map<string, number>();
  const values: Record<string, string> = {
    AGENT_API_DATA_DIR: join(outDir, 'data'),
    AGENT_API_QUOTA_ANONYMOUS: '7',
    AGENT_API_CLIENT_IDLE_DAYS: '3',
    AGENT_API_ANALYTICS: 'on',
  };
  const env = new Proxy(values, {
    get(target, name, receiver) {
      if (typeof name === 'string') reads.set(name, (reads.get(name) ?? 0) + 1);
      return Reflect.get(target, name, receiver);
    },
  });
  const api = createAgentApi({
    outDir,
    env,
    recorders: [createTrafficRecorder],
    logger: { error() {}, warn() {} },
  });
  try {
    await api.ready();
    for (let request = 0; request < 3; request++) {
      const response = await api.handle(
        new Request(`${SITE}/api/v1/search_pages?query=precio`, {
          headers: { 'User-Agent': 'ClaudeBot/1.0' },
        }),
        { clientAddress: '203.0.113.9' },
      );
      assert.equal(response.status, 200, await response.clone().text());
      // The limits got the quota override, the store its data folder.
      assert.equal(response.headers.get('ratelimit-policy'), '"anonymous";q=7;w=60');
      await response.arrayBuffer();
    }
    assert.ok(
      existsSync(join(values.AGENT_API_DATA_DIR!, SQLITE_FILE_NAME)),
      'the store opened in AGENT_API_DATA_DIR',
    );
  } finally {
    await api.close();
  }
  assert.deepEqual(
    Object.fromEntries(reads),
    Object.fromEntries(Object.keys(environmentSchema.shape).map((name) => [name, 1])),
  );
});
