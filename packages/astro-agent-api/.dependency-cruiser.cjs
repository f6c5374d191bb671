/**
 * The package's import rules, checked by `npm run check:imports` (part of `npm test`): layers only point
 * down — the leaf modules at the root of src/ at the bottom, content/ and store/ above them, then
 * operations/, then server/, build/, documents/ and analytics/, then the hosts and the injected routes,
 * beside them check/ (a client of any site over HTTP), and the entry points on top — and no module
 * imports itself through a cycle. Every folder has a layer.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const ENTRY_POINTS = '(index|setup-runtime|node|runtime|workers|workers-entry|serverless|cli|contract|schema-org|playwright)\\.ts$';
const entryPoints = `^src/${ENTRY_POINTS}`;
/** The modules at the root of src/ that are not entry points: facts and types everyone needs. */
const rootLeaves = `^src/(?!${ENTRY_POINTS})[^/]+\\.ts$`;

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
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split the shared part into a module both import.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'root-modules-are-leaves',
      severity: 'error',
      comment: 'A module at the root of src/ holds a fact or a type everyone needs: it may not import the layers that use it.',
      from: { path: rootLeaves },
      to: { path: `^src/(store|server|build|documents|analytics|routes|hosts|schema-org|check)/|${entryPoints}` },
    },
    layer('content-is-a-base-layer', 'content', ['store', 'operations', 'server', 'build', 'documents', 'analytics', 'routes', 'hosts', 'check']),
    layer('store-is-a-base-layer', 'store', ['content', 'operations', 'server', 'build', 'documents', 'analytics', 'routes', 'hosts', 'check']),
    layer('schema-org-is-a-base-layer', 'schema-org', ['content', 'store', 'operations', 'server', 'build', 'documents', 'analytics', 'routes', 'hosts', 'check']),
    layer('operations-below-server-and-build', 'operations', ['server', 'build', 'documents', 'analytics', 'routes', 'hosts', 'check']),
    layer('server-does-not-build', 'server', ['build', 'documents', 'analytics', 'routes', 'hosts', 'check']),
    layer('analytics-beside-server', 'analytics', ['server', 'build', 'documents', 'routes', 'hosts', 'check']),
    layer('build-is-the-content-pipeline', 'build', ['server', 'documents', 'analytics', 'routes', 'hosts', 'check']),
    layer('documents-read-operations', 'documents', ['server', 'build', 'analytics', 'routes', 'hosts', 'check']),
    layer('hosts-call-the-front', 'hosts', ['build', 'documents', 'routes', 'check']),
    layer('routes-only-adapt-astro', 'routes', ['content', 'store', 'operations', 'documents', 'analytics', 'hosts', 'check']),
    // The check reads a site over HTTP as any agent does: it may not trust the code it checks.
    layer('check-is-a-client', 'check', ['content', 'store', 'operations', 'server', 'build', 'documents', 'analytics', 'routes', 'hosts']),
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
  options: {
    tsConfig: { fileName: 'tsconfig.build.json' },
    // Type-only imports are edges too: a layer that names an upper layer's type depends on it.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
