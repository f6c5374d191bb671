import type { Manifest } from './manifest.ts';
import type { PageTexts } from './page-texts.ts';

/**
 * Where a build's files come from, the one thing about them that differs by platform: a Node server
 * reads the build output folder (hosts/node/node-build-files.ts); a Cloudflare Worker fetches them through
 * its static assets binding (hosts/workers/workers-build-files.ts). Paths are relative and use `/`.
 */
export interface BuildFiles {
  /** Where the build is, for messages. */
  readonly location: string;
  /**
   * The folder the files are in, for a host that serves the public ones itself (Node); undefined where
   * they are not files on disk (Workers).
   */
  readonly folder?: string;
  /**
   * For a host whose build folder can be switched to another build at once (a link to a release, which
   * `astro-agent-api publish` swaps): the files of the build there now, whose reads never follow a later
   * switch. A snapshot is loaded from, and its documents and pages served from, one such build. A host
   * whose build cannot be switched leaves it out.
   */
  pin?(): BuildFiles;
  /**
   * Changes when a new build's manifest replaces the current one (Node: the manifest's mtime); rejects
   * when there is no manifest. A host whose build cannot change under it returns a constant.
   */
  manifestStamp(): Promise<number>;
  /** The same, synchronously and cheaply (a request checks it at most once a second); undefined when there is no manifest. */
  manifestStampNow(): number | undefined;
  /** A file of the build's private runtime folder (`agent-api/`): the manifest, the search index. Rejects when absent. */
  readRuntimeFile(name: string): Promise<Uint8Array<ArrayBuffer>>;
  /** The pages' text of a build, its manifest's `textFiles` (content/page-texts.ts); rejects when a file is of another build. */
  openPageTexts(manifest: Pick<Manifest, 'buildId' | 'textFiles'>): Promise<PageTexts>;
  /** A file of the public folder by its public path (`/llms.txt`, `/.well-known/…`); undefined when absent, a rejection when the read failed. */
  readClientFile(path: string): Promise<Uint8Array<ArrayBuffer> | undefined>;
}
