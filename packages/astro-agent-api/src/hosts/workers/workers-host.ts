import type { Host } from '../host.ts';
import { publishWorkersRuntime } from './publish-workers-runtime.ts';

/** @astrojs/cloudflare: the Worker reads the runtime's files through its assets binding. */
export const workersHost: Host = {
  adapter: '@astrojs/cloudflare',
  runtime: 'workers',
  frontsStandaloneServer: false,
  publish: (build) =>
    publishWorkersRuntime(build.outDir, build.clientDir, build.manifest.textFiles),
};
