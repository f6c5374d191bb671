import type { Host } from './host.ts';
import { netlifyHost } from './netlify/netlify-host.ts';
import { nodeHost } from './node/node-host.ts';
import { vercelHost } from './vercel/vercel-host.ts';
import { workersHost } from './workers/workers-host.ts';

/** Every host the package knows, one line each: the one place an adapter is recognised. */
const HOSTS: readonly Host[] = [nodeHost, workersHost, vercelHost, netlifyHost];

/** Any other adapter: its server runs in Node and mounts the runtime over the build folder itself. */
const OTHER_ADAPTER: Host = { ...nodeHost, frontsStandaloneServer: false };

/** The host of a build; undefined without an adapter (a static site: files only, no runtime). */
export function hostOfBuild(config: { adapter?: { name: string } }): Host | undefined {
  const adapter = config.adapter;
  return (
    adapter &&
    (HOSTS.find((host) => host.adapter === adapter.name) ?? {
      ...OTHER_ADAPTER,
      adapter: adapter.name,
    })
  );
}
