/**
 * Which host serves a build, by the Astro adapter it was built with: the one place an adapter is
 * recognised. Every other module asks `hostOfBuild`.
 */
export interface AdapterHost {
  /**
   * Where the runtime runs and reads the build: a Node process over the build folder (hosts/node/), a
   * Cloudflare Worker over its assets binding and D1 (hosts/workers/), or a Vercel or Netlify function
   * over the files the build put into it, its store on Redis (hosts/function/).
   */
  runtime: 'node' | 'workers' | 'vercel' | 'netlify';
  /** @astrojs/node's standalone server, which the agent front is put in front of (hosts/node/standalone-front.ts). */
  frontsStandaloneServer: boolean;
}

/** One line per adapter the package knows. */
const ADAPTER_HOSTS: Readonly<Record<string, AdapterHost>> = {
  '@astrojs/node': { runtime: 'node', frontsStandaloneServer: true },
  '@astrojs/cloudflare': { runtime: 'workers', frontsStandaloneServer: false },
  '@astrojs/vercel': { runtime: 'vercel', frontsStandaloneServer: false },
  '@astrojs/netlify': { runtime: 'netlify', frontsStandaloneServer: false },
};

/** Any other adapter: its server runs in Node and mounts the runtime over the build folder itself. */
const OTHER_ADAPTER: AdapterHost = { runtime: 'node', frontsStandaloneServer: false };

/** The host of a build; undefined without an adapter (a static site: files only, no runtime). */
export function hostOfBuild(config: { adapter?: { name: string } }): AdapterHost | undefined {
  return config.adapter && (ADAPTER_HOSTS[config.adapter.name] ?? OTHER_ADAPTER);
}
