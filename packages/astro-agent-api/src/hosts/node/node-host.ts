import type { Host } from '../host.ts';

/** @astrojs/node: the runtime reads the build folder beside the server, which needs nothing published. */
export const nodeHost: Host = {
  adapter: '@astrojs/node',
  runtime: 'node',
  frontsStandaloneServer: true,
};
