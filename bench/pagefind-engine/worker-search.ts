import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import {
  InvalidCursorError,
  type SearchEngine,
  type SearchEngineOptions,
  type SearchInput,
  type SearchOutput,
} from './search.ts';

export interface WorkerSearchEngine extends SearchEngine {
  /** Stops the worker; searches still pending are rejected. */
  close(): Promise<void>;
}

/** Longest wait for the worker to load an index (10,000 pages load in about 1.3 s). */
const LOAD_TIMEOUT_MS = 30_000;
/** Distinct answers (query, city, limit, cursor) kept on the calling thread. */
const ANSWER_CACHE_ENTRIES = 2_000;

/**
 * The search engine of search.ts in a worker thread. A search that is not cached runs Pagefind's
 * WebAssembly synchronously for several ms per common word (tens of ms for a new query at 3,000
 * pages), which would stall every other request of the server; in the worker it stalls nothing.
 * Answers are cached here too, so a repeated query is answered without a round trip and never waits
 * behind a new one. One engine serves one build, so the cache is keyed by the build implicitly.
 */
export async function createWorkerSearchEngine(
  options: SearchEngineOptions,
): Promise<WorkerSearchEngine> {
  // The worker needs the pages' addresses, not their Markdown.
  const pages = options.pages.map(({ url, path, title, facets }) => ({
    url,
    path,
    title,
    facets,
    frontMatter: '',
    markdown: '',
  }));
  // The worker file has this module's extension: `.ts` in the repository, `.js` once compiled.
  const worker = new Worker(
    new URL(`./search-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
    { workerData: { ...options, pages } },
  );
  const pending = new Map<
    number,
    { resolve: (output: SearchOutput) => void; reject: (error: Error) => void }
  >();
  const answers = new LRUCache<string, SearchOutput>({ max: ANSWER_CACHE_ENTRIES });
  let nextId = 1;
  let failure: Error | undefined;

  let onError: (error: Error) => void = () => {};
  let onExit: (code: number) => void = () => {};
  let onReady: (message: { ready?: true; failed?: string }) => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onError = reject;
      onExit = (code) =>
        reject(new Error(`The search worker stopped with exit code ${code} while loading`));
      onReady = (message) => (message.failed ? reject(new Error(message.failed)) : resolve());
      worker.on('error', onError).on('exit', onExit).on('message', onReady);
      // A rebuild that empties the index folder while it is read can leave Pagefind waiting forever for
      // a file: give up, so the server keeps answering from the build it has and retries later.
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `The search index in ${options.pagefindDir} did not load within ${LOAD_TIMEOUT_MS / 1000} s`,
            ),
          ),
        LOAD_TIMEOUT_MS,
      );
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
    // Only these go: the Worker keeps listeners of its own (they start and stop its message port).
    worker.off('error', onError).off('exit', onExit).off('message', onReady);
  }
  worker.on(
    'message',
    ({
      id,
      output,
      error,
    }: {
      id: number;
      output?: SearchOutput;
      error?: { cursor: boolean; message: string };
    }) => {
      const call = pending.get(id);
      if (!call) return;
      pending.delete(id);
      if (pending.size === 0) worker.unref();
      if (error)
        call.reject(
          error.cursor ? new InvalidCursorError(error.message) : new Error(error.message),
        );
      else call.resolve(output!);
    },
  );
  const fail = (error: Error) => {
    failure = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The search worker stopped with exit code ${code}`)));
  // Idle, the worker must not keep the process alive; while a search is pending it must.
  worker.unref();

  return {
    search(input: SearchInput): Promise<SearchOutput> {
      const key = JSON.stringify([input.query, input.filters, input.limit, input.cursor ?? '']);
      const cached = answers.get(key);
      if (cached) return Promise.resolve(cached);
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      return new Promise<SearchOutput>((resolve, reject) => {
        pending.set(id, {
          resolve: (output) => {
            answers.set(key, output);
            resolve(output);
          },
          reject,
        });
        worker.postMessage({ id, input });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
