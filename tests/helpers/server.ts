import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from 'astro-agent-api/node';
import { buildSite } from './build-site.ts';

export interface TestServer {
  /** Base URL on loopback, e.g. http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  outDir: string;
  /** Stops the server; keeps the data directory when `keepData` (to restart on the same data). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the production front (`npm start`'s server) in this process on a free loopback port, over the
 * built demo site, with its own temporary data directory unless one is given.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<TestServer> {
  const { outDir } = await buildSite();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'agent-api-data-')));
  const front = await startServer({
    outDir,
    host: '127.0.0.1',
    port: 0,
    env: { ...process.env, AGENT_API_DATA_DIR: dataDir, ...options.env },
  });
  return {
    url: front.url,
    dataDir,
    outDir,
    async close({ keepData = false } = {}) {
      await front.close();
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts several servers at once; when one fails to start, the ones that did are closed before the
 * failure is thrown (a server left open keeps its Redis connection, and the test process, alive).
 */
export async function startServers<T extends readonly Promise<TestServer>[]>(
  starts: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed === undefined)
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<TestServer>).value) as {
      -readonly [K in keyof T]: Awaited<T[K]>;
    };
  await Promise.all(
    settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.close() : undefined)),
  );
  throw failed.reason;
}
