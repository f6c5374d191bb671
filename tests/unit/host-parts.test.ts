/**
 * A host's platform parts have no defaults: a host that leaves one out (the guarded outbound fetch
 * above all, which a function host once went without) does not compile. The TypeScript compiler
 * checks a host written beside the runtime once whole and once without each part, in one program.
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PACKAGE = fileURLToPath(new URL('../../packages/astro-agent-api/', import.meta.url));
const HOSTS = join(PACKAGE, 'src/hosts');
const PARTS = ['files', 'openStore', 'fetchOutbound'] as const;

/** A host's runtime as a host folder writes it, with the parts named. */
function hostSource(parts: readonly string[]): string {
  const given: Record<string, string> = {
    files: 'files: createNodeBuildFiles(outDir)',
    openStore: 'openStore: (settings) => openStore({ dataDir: outDir, settings })',
    fetchOutbound: 'fetchOutbound: fetchOutboundOnNode',
  };
  return [
    "import { readEnvironment } from '../environment.ts';",
    "import { createPortableAgentApi } from '../server/create-agent-api.ts';",
    "import { openStore } from '../store/open-store.ts';",
    "import { createNodeBuildFiles } from './node/node-build-files.ts';",
    "import { fetchOutboundOnNode } from './node/node-outbound-fetch.ts';",
    "const outDir = '/srv/site/dist';",
    `export const api = createPortableAgentApi({ environment: readEnvironment({}), ${parts.map((part) => given[part]).join(', ')} });`,
  ].join('\n');
}

/** The diagnostics of each virtual file, by name, from one program over all of them. */
function typecheck(files: Record<string, string>): Record<string, string[]> {
  const configFile = join(PACKAGE, 'tsconfig.build.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configFile));
  const virtual = new Map(Object.entries(files).map(([name, text]) => [join(HOSTS, name), text]));
  const host = ts.createCompilerHost({ ...options, noEmit: true, incremental: false });
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => virtual.has(path) || fileExists(path);
  host.readFile = (path) => virtual.get(path) ?? readFile(path);
  host.getSourceFile = (path, language, ...rest) => {
    const text = virtual.get(path);
    return text === undefined ? getSourceFile(path, language, ...rest) : ts.createSourceFile(path, text, language);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: { ...options, noEmit: true, incremental: false }, host });
  return Object.fromEntries(
    [...virtual.keys()].map((path) => [
      path.slice(HOSTS.length + 1),
      ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ]),
  );
}

test('a host with every platform part compiles; one without any one of them does not, and the error names the part', () => {
  const files: Record<string, string> = { 'whole-host.ts': hostSource(PARTS) };
  for (const missing of PARTS) files[`host-without-${missing}.ts`] = hostSource(PARTS.filter((part) => part !== missing));
  const diagnostics = typecheck(files);
  assert.deepEqual(diagnostics['whole-host.ts'], [], 'the whole host compiles');
  for (const missing of PARTS) {
    const errors = diagnostics[`host-without-${missing}.ts`]!;
    assert.equal(errors.length, 1, `${missing}: ${errors.join('\n')}`);
    assert.match(errors[0]!, new RegExp(`Property '${missing}' is missing`));
  }
});
