/**
 * The import rules every package of the workspace shares; each package's .dependency-cruiser.cjs extends
 * them with its own (the integration's layers, the grader's distance from the integration).
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
      name: 'declared-dependencies-only',
      severity: 'error',
      comment:
        "A package imported must be in the importing package's package.json: in the workspace every package resolves from the root, " +
        "in a user's install it would be missing. The types of hast and mdast come with the unified utilities that use them.",
      from: {},
      to: {
        dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'npm-dev'],
        pathNot: '/node_modules/@types/',
      },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.build.json' },
    // Type-only imports are edges too: a layer that names an upper layer's type depends on it.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Node's conditions, as it resolves the packages at run time (structured-headers exports `import` and `require` only).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
