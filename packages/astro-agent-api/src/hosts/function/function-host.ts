import type { FunctionEntry, Host } from '../host.ts';
import { publishFunctionRuntime, type FunctionPlatform } from './publish-function-runtime.ts';

const NO_REDIS_WARNING =
  "REDIS_URL is not set: in serverless functions the clients, tokens and quotas live in Redis only, so search_pages, read_page, MCP and OAuth will answer 503 until REDIS_URL is set in the platform's environment variables (an Upstash rediss:// URL, for example); the pages, twins and documents are served meanwhile";

/** A serverless adapter's host: its function entry wrapped in the front, the runtime's files put into the function. */
export function createFunctionHost(
  adapter: string,
  functionEntry: FunctionEntry,
  platform: FunctionPlatform,
): Host {
  return {
    adapter,
    runtime: 'function',
    frontsStandaloneServer: false,
    functionEntry,
    async publish(build, log) {
      const copied = await publishFunctionRuntime(build, platform);
      log.info(
        `put the runtime's files and the agent documents into the ${platform.name} (${copied.files} files, ${(copied.bytes / 1024 ** 2).toFixed(1)} MB); it answers the twins and the documents`,
      );
      await platform.publishNegotiation?.(build, log);
      // Without a shared store every instance of the function would keep quotas of its own: the store's paths answer 503 instead.
      if (!process.env.REDIS_URL) log.warn(NO_REDIS_WARNING);
    },
  };
}
