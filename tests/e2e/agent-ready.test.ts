/**
 * The agent surface as the grader sees it, run as its users run it: the astro-agent-api-check tarball
 * (`npm pack`, as published) through `npx --package`, from a folder outside the workspace, on the local
 * build or on BASE_URL. The `agentReady` fixture runs the same checks in tests/e2e/playwright/.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CheckReport } from 'astro-agent-api-check';
import { runCommand } from '../helpers/child-process.ts';
import { packPackageOnce } from '../helpers/example-site.ts';
import { openTarget, type Target } from './support/target.ts';

let target: Target;
before(async () => {
  target = await openTarget();
});
after(() => target?.close());

test('the site passes `npx astro-agent-api-check`, run from the packed grader', {
  timeout: 300_000,
}, async (t) => {
  const packed = await packPackageOnce('astro-agent-api-check');
  t.diagnostic(`astro-agent-api-check tarball: ${packed.size} bytes, ${packed.files.length} files`);
  // Of the integration, only the contract's two leaf modules are compiled in; no TypeScript source ships.
  assert.deepEqual(packed.files.filter((file) => file.startsWith('dist/astro-agent-api/')).sort(), [
    'dist/astro-agent-api/src/contract/directive-attribute.d.ts',
    'dist/astro-agent-api/src/contract/directive-attribute.js',
    'dist/astro-agent-api/src/contract/paths.d.ts',
    'dist/astro-agent-api/src/contract/paths.js',
  ]);
  assert.deepEqual(packed.files.filter((file) => !/\.(?:js|d\.ts)$/.test(file)).sort(), [
    'CHANGELOG.md',
    'LICENSE',
    'README.md',
    'package.json',
  ]);
  const elsewhere = await mkdtemp(join(tmpdir(), 'agent-api-npx-'));
  try {
    const canonical =
      target.siteOrigin !== new URL(target.baseUrl).origin
        ? ['--canonical-origin', target.siteOrigin]
        : [];
    // Exit 0 or runCommand rejects with the text of the failure; JSON to read the report back.
    const { stdout } = await runCommand(
      'npx',
      [
        '--yes',
        '--prefer-offline',
        '--package',
        packed.file,
        'astro-agent-api-check',
        target.baseUrl,
        ...canonical,
        '--format',
        'json',
      ],
      { cwd: elsewhere },
    );
    const report = JSON.parse(stdout) as CheckReport;
    assert.equal(report.api.detected, true, report.api.reason);
    assert.equal(report.summary.fail, 0);
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
});
