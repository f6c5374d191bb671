import { copyFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, RUNTIME_DIR, WORKERS_RUNTIME_DIR } from '../../content/manifest.ts';
import { SERVER_INDEX_FILE } from '../../content/server-index.ts';

/**
 * Copies the runtime files (the manifest's `textFiles` among them) into the public folder's
 * WORKERS_RUNTIME_DIR, where a Worker reads them through its assets binding
 * (hosts/workers/workers-build-files.ts); the Worker refuses that folder to the public. The manifest goes
 * last, as in the build output.
 */
export async function publishWorkersRuntime(
  outDir: string,
  clientDir: string,
  textFiles: readonly string[],
): Promise<void> {
  const target = join(clientDir, WORKERS_RUNTIME_DIR);
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const name of [SERVER_INDEX_FILE, ...textFiles, MANIFEST_FILE])
    await copyFile(join(outDir, RUNTIME_DIR, name), join(target, name));
}
