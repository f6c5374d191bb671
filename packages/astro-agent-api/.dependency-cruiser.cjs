/**
 * The package's import rules, checked by `npm run check:imports` (part of `npm test`): layers only point
 * down — content/ and store/ at the bottom, operations/ above them, then server/, build/ and documents/,
 * and the entry points on top — and no module imports itself through a cycle.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const entryPoints = '^src/(index|setup-runtime|node|runtime|workers|workers-entry|cli|contract|schema-org|playwright)\\.ts$';

/** `from` may not import any of `to`: one rule per layer. */
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
    layer('content-is-a-base-layer', 'content', ['store', 'operations', 'server', 'build', 'documents', 'analytics', 'routes']),
    layer('store-is-a-base-layer', 'store', ['content', 'operations', 'server', 'build', 'documents', 'analytics', 'routes']),
    layer('operations-below-server-and-build', 'operations', ['server', 'build', 'documents', 'analytics', 'routes']),
    layer('server-does-not-build', 'server', ['build', 'documents', 'analytics', 'routes']),
    layer('analytics-beside-server', 'analytics', ['server', 'build', 'documents', 'routes']),
    layer('build-is-the-content-pipeline', 'build', ['server', 'documents', 'analytics', 'routes']),
    layer('documents-read-operations', 'documents', ['server', 'build', 'analytics', 'routes']),
    // The check reads a site over HTTP as any agent does: it may not trust the code it checks.
    layer('check-is-a-client', 'check', ['content', 'store', 'operations', 'server', 'build', 'documents', 'analytics', 'routes', 'hosts']),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.build.json' },
    // Type-only imports are edges too: a layer that names an upper layer's type depends on it.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
