/**
 * Dredd, an npm contract tester, against the running server with the server's own openapi.json:
 * every response the document describes is requested (tests/contract/dredd-hooks.cjs shapes each
 * request so the server has a reason for that status) and checked for its status, its declared
 * headers and its JSON schema. The statuses no single request can cause (429, 500) are skipped there,
 * each with the test that covers it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('Dredd passes every testable response of openapi.json against the server, with no failure', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>(
    (resolve, reject) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        CONTRACT_SERVER_URL: server.url,
        NO_COLOR: '1',
      };
      delete env.NODE_TEST_CONTEXT;
      const child = spawn(
        process.execPath,
        [
          'node_modules/dredd/bin/dredd',
          `${server.url}/openapi.json`,
          server.url,
          '--hookfiles=tests/contract/dredd-hooks.cjs',
          '--color=false',
        ],
        {
          cwd: ROOT,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk));
      child.once('error', reject);
      child.once('close', (exit) => resolve({ code: exit, output: text }));
    },
  );
  const results = output
    .split('\n')
    .filter((line) => /^(pass|fail|skip|complete|error):/.test(line));
  console.log(results.join('\n'));
  const summary =
    /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(output);
  assert.ok(summary, output.slice(-3000));
  const [, passing, failing, errors] = summary.map(Number);
  assert.equal(failing, 0, output.slice(-3000));
  assert.equal(errors, 0, output.slice(-3000));
  assert.ok(passing! >= 40, `${passing} passing`);
  assert.equal(code, 0);
});
