import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuntimeLogger } from '../../shared/logger.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';
import { registerAgentApi } from './agent-api-registry.ts';

/** The handler a middleware-mode build of @astrojs/node exports from its server entry. */
export type AdapterHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void> | void;

export interface ReleaseHandlers {
  /** Astro's handler of the build in `folder`, imported on first use; rejects when it cannot be imported. */
  handlerOf(folder: string): Promise<AdapterHandler>;
  /** Removes the registrations made for the builds served. */
  close(): void;
}

/**
 * Astro's handler (`server/entry.mjs`) of each build a server has served: a request uses the handler
 * of the build it is answered from, so a page rendered on demand after a switch to another release is
 * that release's, and a request in flight finishes on the one it started with. Imported the first time
 * the build is seen, then kept: Node cannot unload a module, so each release served holds its server
 * code for the life of the process. `api` is registered as each build's runtime first, so that the
 * endpoints and middleware of the build's own modules share it rather than make their own.
 */
export function createReleaseHandlers(api: AgentApi, logger: RuntimeLogger): ReleaseHandlers {
  const handlers = new Map<string, Promise<AdapterHandler>>();
  const registrations: (() => void)[] = [];
  return {
    handlerOf(folder) {
      let handler = handlers.get(folder);
      if (!handler) {
        registrations.push(registerAgentApi(folder, api));
        const entry = pathToFileURL(join(folder, 'server', 'entry.mjs')).href;
        handler = import(entry).then((module: { handler: AdapterHandler }) => module.handler);
        // Said once per build; each request that needs the handler is answered 500 meanwhile.
        handler.catch((cause: unknown) =>
          logger.error(`astro-agent-api: cannot load the server of the build in ${folder}`, cause),
        );
        handlers.set(folder, handler);
      }
      return handler;
    },
    close() {
      for (const unregister of registrations) unregister();
    },
  };
}
