import type { Manifest, ManifestPage } from '../content/manifest.ts';

/**
 * A host: where the runtime of a site built with one Astro adapter runs, and what the integration
 * does for it. Each is a folder of hosts/ with a `<name>-host.ts`, listed in host-registry.ts, the one
 * list the integration (index.ts) and the runtime setup (setup-runtime.ts) go through.
 */
export interface Host {
  /** The name of the Astro adapter it serves (`config.adapter.name`). */
  adapter: string;
  /**
   * The runtime the injected routes import (setup-runtime.ts): a Node process over the build folder
   * (hosts/node/), a Cloudflare Worker over its assets binding and D1 (hosts/workers/), or a function
   * over the files the build put into it, its store on Redis (hosts/function/).
   */
  runtime: 'node' | 'workers' | 'function';
  /** @astrojs/node's standalone server, which the agent front is put in front of (hosts/node/standalone-front.ts). */
  frontsStandaloneServer: boolean;
  /** A function host's entry: the adapter's own, which the integration replaces with the agent front before it. */
  functionEntry?: FunctionEntry;
  /** After the manifest is written: puts the runtime's files where this host reads them, and tells the build's log. */
  publish?(build: HostBuild, log: BuildLog): Promise<void>;
}

/** The function entry of a serverless adapter (its `serverEntrypoint`), and the module that takes its place. */
export interface FunctionEntry {
  /** The module the adapter names as the function's entry. */
  adapterEntry: string;
  /** The entry that takes its place, importing the package's serverless module and the runtime's virtual module by these ids. */
  code(ids: { serverless: string; runtime: string }): string[];
}

/** The build as a host's publish step reads it. */
export interface HostBuild {
  /** The project root, Astro's outDir, its public folder and the server entry as the build wrote it. */
  root: string;
  outDir: string;
  clientDir: string;
  serverEntry: string;
  /** The build's settings, its pages (and copies of pages, which have twins too), its redirects and its texts files. */
  manifest: Pick<Manifest, 'site' | 'routing' | 'textFiles' | 'redirects'> & {
    pages: readonly Pick<ManifestPage, 'path'>[];
    copies: readonly Pick<ManifestPage, 'path'>[];
  };
  /** Public paths of the agent documents written into the public folder. */
  documents: readonly string[];
}

/** The build's log, as Astro's integration logger offers it. */
export interface BuildLog {
  info(message: string): void;
  warn(message: string): void;
}
