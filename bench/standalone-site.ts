/**
 * The serving benchmark's standalone variant: a generated site's sources copied to
 * `bench/.sites/<name>-standalone/` with the demo's configuration and @astrojs/node in standalone mode,
 * so that its built `dist/server/entry.mjs` is Astro's own server — what a user of the package runs.
 */
import { cp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Creates (or refreshes) the standalone copy of the generated site at `sourceRoot`; returns its root. */
export async function createStandaloneSite(sourceRoot: string): Promise<string> {
  const root = `${sourceRoot}-standalone`;
  await rm(join(root, 'src'), { recursive: true, force: true });
  await cp(join(sourceRoot, 'src'), join(root, 'src'), { recursive: true });
  await cp(join(sourceRoot, 'public'), join(root, 'public'), { recursive: true });
  await cp(join(sourceRoot, 'astro.config.mjs'), join(root, 'astro.demo-config.mjs'));
  await writeFile(
    join(root, 'astro.config.mjs'),
    [
      "import node from '@astrojs/node';",
      "import config from './astro.demo-config.mjs';",
      '',
      '// The same site and integration options, served by @astrojs/node in standalone mode.',
      "export default { ...config, adapter: node({ mode: 'standalone' }) };",
      '',
    ].join('\n'),
  );
  return root;
}
