import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A copy of `tests/fixtures/<fixture>` that a test file builds (and may edit): made before its tests,
 * removed after them; returns its folder. Inside the repository, so that the copy resolves `astro` and
 * `astro-agent-api` from its node_modules; named after the process, so test files never share one.
 */
export function useFixtureCopy(fixture: string, name: string): string {
  const site = join(ROOT, 'tests', '.build', `${name}-${process.pid}`);
  before(async () => {
    await rm(site, { recursive: true, force: true });
    await mkdir(site, { recursive: true });
    await cp(join(ROOT, 'tests', 'fixtures', fixture), site, { recursive: true });
  });
  after(() => rm(site, { recursive: true, force: true }));
  return site;
}
