import type { BuildFiles } from '../../content/build-files.ts';
import { WORKERS_RUNTIME_DIR } from '../../content/manifest.ts';
import { readPageTextsFrom } from '../../content/page-texts.ts';

/** A Worker's static assets binding (Cloudflare's `Fetcher`, the part used here). */
export interface AssetsBinding {
  fetch(input: Request | string): Promise<Response>;
}

/** The host of the requests to the assets binding: it only reads the path. */
const ASSETS_ORIGIN = 'https://assets.invalid';

/**
 * The build's files as a Cloudflare Worker reads them: through its assets binding, the runtime files
 * from the public folder's WORKERS_RUNTIME_DIR. A deployment replaces the Worker with its assets, so
 * the build never changes under a running instance: the manifest's stamp is a constant. The pages'
 * text files are read whole, once per instance (a Worker cannot read part of an asset synchronously).
 */
export function createAssetsBuildFiles(assets: AssetsBinding): BuildFiles {
  async function fetchAsset(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
    const response = await assets.fetch(new Request(new URL(path, ASSETS_ORIGIN)));
    if (!response.ok) {
      await response.body?.cancel();
      // Absent is an answer (a 404); any other status is the read's failure, and may pass.
      if (response.status === 404) return undefined;
      throw new Error(`The assets binding answered ${response.status} for ${path}.`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }
  async function readRuntimeFile(name: string): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = await fetchAsset(`/${WORKERS_RUNTIME_DIR}/${name}`);
    if (!bytes) throw new Error(`No ${name} among the Worker's assets: build the site again.`);
    return bytes;
  }
  return {
    location: `the assets binding, /${WORKERS_RUNTIME_DIR}/`,
    manifestStamp: async () => 0,
    manifestStampNow: () => 0,
    readRuntimeFile,
    openPageTexts: async ({ buildId, textFiles }) =>
      readPageTextsFrom(await Promise.all(textFiles.map(readRuntimeFile)), buildId),
    readClientFile: fetchAsset,
  };
}
