import type { Host } from '../../../packages/astro-agent-api/src/hosts/host.ts';

/** A made-up adapter's host, for tests only: the runtime of Node over the build folder, no standalone server, nothing to publish. */
export const testHost: Host = {
  adapter: '@example/test-adapter',
  runtime: 'node',
  frontsStandaloneServer: false,
};
