/**
 * The registry of hosts is the one place an adapter is recognised: the integration and the runtime
 * setup ask it which host a build has, and what that host does at build time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostOfBuild } from '../../packages/astro-agent-api/src/hosts/host-registry.ts';

test('each adapter the package knows has its host: its runtime, its function entry and its publish step', () => {
  const of = (name: string) => hostOfBuild({ adapter: { name } })!;
  assert.equal(hostOfBuild({}), undefined, 'no adapter, no runtime');
  assert.deepEqual(
    ['@astrojs/node', '@astrojs/cloudflare', '@astrojs/vercel', '@astrojs/netlify'].map((name) => {
      const host = of(name);
      return [
        host.adapter,
        host.runtime,
        host.frontsStandaloneServer,
        host.functionEntry?.adapterEntry,
        typeof host.publish,
      ];
    }),
    [
      ['@astrojs/node', 'node', true, undefined, 'undefined'],
      ['@astrojs/cloudflare', 'workers', false, undefined, 'function'],
      ['@astrojs/vercel', 'function', false, '@astrojs/vercel/entrypoint', 'function'],
      ['@astrojs/netlify', 'function', false, '@astrojs/netlify/ssr-function.js', 'function'],
    ],
  );
});

test("any other adapter's server runs in Node and mounts the runtime itself: no standalone front, nothing published", () => {
  const host = hostOfBuild({ adapter: { name: '@example/adapter' } })!;
  assert.deepEqual(
    [host.adapter, host.runtime, host.frontsStandaloneServer, host.functionEntry, host.publish],
    ['@example/adapter', 'node', false, undefined, undefined],
  );
});

test("a function host's entry imports the adapter's entry and the runtime module by the ids it is given", () => {
  const code = hostOfBuild({ adapter: { name: '@astrojs/netlify' } })!.functionEntry!.code({
    serverless: 'pkg/serverless',
    runtime: 'virtual:rt',
  });
  assert.ok(
    code.includes(
      "import { createHandler as createSiteHandler } from '@astrojs/netlify/ssr-function.js';",
    ),
  );
  assert.ok(code.includes('import { createNetlifyFront } from "pkg/serverless";'));
  assert.ok(code.includes('import { agentFront } from "virtual:rt";'));
});
