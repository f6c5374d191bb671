import { rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to `file` through a temporary file beside it and a rename: a server reading the build
 * output while a rebuild writes it sees the old file or the new one, never half of one.
 */
export async function writeFileAtomically(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryFileOf(file);
  await writeFile(temporary, data);
  await rename(temporary, file);
}

function temporaryFileOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
}
