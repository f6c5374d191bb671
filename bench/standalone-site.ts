/**
 * The serving benchmark's standalone variant: a generated site's sources copied to
 * `bench/.sites/<name>-standalone/` with the demo's configuration and @astrojs/node in standalone mode,
 * so that its built `dist/server/entry.mjs` is Astro's own server — what a user of the package runs.
 */
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeWrappedConfig } from './generate-site.ts';

/** Creates (or refreshes) the standalone copy of the generated site at `sourceRoot`; returns its root. */
export async function createStandaloneSite(sourceRoot: string): Promise<string> {
  const root = `${sourceRoot}-standalone`;
  await rm(join(root, 'src'), { recursive: true, force: true });
  await cp(join(sourceRoot, 'src'), join(root, 'src'), { recursive: true });
  await cp(join(sourceRoot, 'public'), join(root, 'public'), { recursive: true });
  await writeWrappedConfig(
    root,
    join(sourceRoot, 'astro.demo-config.mjs'),
    [
      '// The same site and integration options, served by @astrojs/node in standalone mode.',
      "export default { ...config, adapter: node({ mode: 'standalone' }) };",
    ],
    ["import node from '@astrojs/node';"],
  );
  return root;
}
