import { parentPort, workerData } from 'node:worker_threads';
import {
  createSearchEngine,
  InvalidCursorError,
  type SearchEngineOptions,
  type SearchInput,
} from './search.ts';

// Worker entry of the search engine (see worker-search.ts): loads the build's index, then answers
// `{ id, input }` messages with `{ id, output }` or `{ id, error }`.
const port = parentPort!;
try {
  const engine = await createSearchEngine(workerData as SearchEngineOptions);
  port.on('message', ({ id, input }: { id: number; input: SearchInput }) => {
    engine.search(input).then(
      (output) => port.postMessage({ id, output }),
      (error: unknown) =>
        port.postMessage({
          id,
          error: {
            cursor: error instanceof InvalidCursorError,
            message: error instanceof Error ? error.message : String(error),
          },
        }),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
