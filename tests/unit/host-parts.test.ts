/**
 * A host is one folder and one line of the registry, and its platform parts have no defaults: a host
 * that leaves one out (the guarded outbound fetch above all, which a function host once went without)
 * does not compile. The TypeScript compiler checks, in one program, the test-only host of
 * tests/helpers/test-host/ added to the registry by one line, and its runtime without each part.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = join(REPOSITORY, 'packages/astro-agent-api');
const REGISTRY = join(PACKAGE, 'src/hosts/host-registry.ts');
const TEST_HOST = join(REPOSITORY, 'tests/helpers/test-host');
const HOST_FILES = ['test-host.ts', 'test-agent-api.ts', 'test-front.ts'].map((name) =>
  join(TEST_HOST, name),
);
const PARTS = ['environment', 'files', 'openStore', 'fetchOutbound'] as const;

/** The registry with the test host's line (and its import). */
function registryWithTestHost(): string {
  const source = readFileSync(REGISTRY, 'utf8');
  const withHost = source.replace(
    /const HOSTS: readonly Host\[\] = \[(.*)\];/,
    'const HOSTS: readonly Host[] = [$1, testHost];',
  );
  assert.notEqual(withHost, source, 'the registry lists its hosts in one array');
  return `import { testHost } from '../../../../tests/helpers/test-host/test-host.ts';\n${withHost}\nexport const found: Host = hostOfBuild({ adapter: { name: '@example/test-adapter' } })!;\n`;
}

/** The test host's runtime without the line that gives `part`. */
function runtimeWithout(part: string): string {
  const lines = readFileSync(join(TEST_HOST, 'test-agent-api.ts'), 'utf8').split('\n');
  const kept = lines.filter((line) => !line.trimStart().startsWith(`${part}:`));
  assert.equal(kept.length, lines.length - 1, `the test host gives ${part} on one line`);
  return kept.join('\n');
}

/** The diagnostics of each file (the host folder's and the virtual ones), by path, from one program over all of them. */
function typecheck(virtual: Map<string, string>): Record<string, string[]> {
  const configFile = join(PACKAGE, 'tsconfig.build.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configFile));
  const programOptions = { ...options, rootDir: REPOSITORY, noEmit: true, incremental: false };
  const host = ts.createCompilerHost(programOptions);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => virtual.has(path) || fileExists(path);
  host.readFile = (path) => virtual.get(path) ?? readFile(path);
  host.getSourceFile = (path, language, ...rest) => {
    const text = virtual.get(path);
    return text === undefined
      ? getSourceFile(path, language, ...rest)
      : ts.createSourceFile(path, text, language);
  };
  const rootNames = [...HOST_FILES, ...virtual.keys()];
  const program = ts.createProgram({ rootNames, options: programOptions, host });
  return Object.fromEntries(
    rootNames.map((path) => [
      path,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(path))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ]),
  );
}

test('the test-only host, one folder, compiles into the registry by one line; without any one platform part it does not, and the error names the part', () => {
  const registry = join(PACKAGE, 'src/hosts/host-registry-with-test-host.ts');
  const virtual = new Map([[registry, registryWithTestHost()]]);
  for (const part of PARTS)
    virtual.set(join(TEST_HOST, `test-agent-api-without-${part}.ts`), runtimeWithout(part));
  const diagnostics = typecheck(virtual);
  for (const path of [...HOST_FILES, registry])
    assert.deepEqual(diagnostics[path], [], `${path} compiles`);
  for (const part of PARTS) {
    const errors = diagnostics[join(TEST_HOST, `test-agent-api-without-${part}.ts`)]!;
    assert.equal(errors.length, 1, `${part}: ${errors.join('\n')}`);
    assert.match(errors[0]!, new RegExp(`Property '${part}' is missing`));
  }
});
