/**
 * The package's import rules, checked by `npm run check:imports` (part of `npm test`): layers only point
 * down — the leaf modules at the root of src/ at the bottom, content/ and store/ above them, then
 * operations/, then server/, build/, documents/ and analytics/, then the hosts and the injected routes,
 * and the entry points on top (the integration's build pipeline, integration/, among them) — and no module imports itself through a cycle. Every folder has a layer.
 * The rules every package shares (no cycle, only declared packages) are in ../dependency-cruiser.base.cjs;
 * the grader is a package of its own (packages/astro-agent-api-check, with its own rules).
 * @type {import('dependency-cruiser').IConfiguration}
 */
const ENTRY_POINTS =
  '(index|integration/[a-z-]+|setup-runtime|node|runtime|workers|workers-entry|serverless|cli|contract|schema-org)\\.ts$';
const entryPoints = `^src/${ENTRY_POINTS}`;
/** The contract's facts (src/contract/), the shared utilities (src/shared/) and the options at the root of src/: what everyone needs. */
const rootLeaves = `^src/(contract/|shared/|(?!${ENTRY_POINTS})[^/]+\\.ts$)`;

/** Node's modules that Cloudflare Workers provide (with the `nodejs_compat` flag the package README asks for). */
const WORKER_NODE_MODULES = ['crypto', 'zlib', 'net', 'buffer'];

/** `from` may not import any of the folders `to`, nor an entry point: one rule per layer. */
const layer = (name, from, to) => ({
  name,
  severity: 'error',
  comment: `${from} sits below ${to.join(', ')}: move the shared fact into a leaf module both can import.`,
  from: { path: `^src/${from}/` },
  to: { path: `^src/(${to.join('|')})/|${entryPoints}` },
});

module.exports = {
  extends: '../dependency-cruiser.base.cjs',
  forbidden: [
    {
      name: 'root-modules-are-leaves',
      severity: 'error',
      comment:
        'A module at the root of src/ holds a fact or a type everyone needs: it may not import the layers that use it.',
      from: { path: rootLeaves },
      to: {
        path: `^src/(store|server|build|documents|analytics|routes|hosts|schema-org)/|${entryPoints}`,
      },
    },
    layer('content-is-a-base-layer', 'content', [
      'store',
      'operations',
      'server',
      'build',
      'documents',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('store-is-a-base-layer', 'store', [
      'content',
      'operations',
      'server',
      'build',
      'documents',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('schema-org-is-a-base-layer', 'schema-org', [
      'content',
      'store',
      'operations',
      'server',
      'build',
      'documents',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('operations-below-server-and-build', 'operations', [
      'server',
      'build',
      'documents',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('server-does-not-build', 'server', [
      'build',
      'documents',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('analytics-beside-server', 'analytics', [
      'server',
      'build',
      'documents',
      'routes',
      'hosts',
    ]),
    layer('build-is-the-content-pipeline', 'build', [
      'server',
      'documents',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('documents-read-operations', 'documents', [
      'server',
      'build',
      'analytics',
      'routes',
      'hosts',
    ]),
    layer('hosts-call-the-front', 'hosts', ['build', 'documents', 'routes']),
    layer('routes-only-adapt-astro', 'routes', [
      'content',
      'store',
      'operations',
      'documents',
      'analytics',
      'hosts',
    ]),
    {
      name: 'server-runs-on-every-host',
      severity: 'error',
      comment:
        `server/ is the web-standard core every host runs, a Cloudflare Worker included: it may use only the Node modules Workers provide (${WORKER_NODE_MODULES.join(', ')}). ` +
        'File system, node:http and streams belong to a host (hosts/node/).',
      from: { path: '^src/server/' },
      to: { dependencyTypes: ['core'], pathNot: `^(node:)?(${WORKER_NODE_MODULES.join('|')})$` },
    },
  ],
};
