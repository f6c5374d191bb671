/**
 * The conversion workers that run while Astro renders yield to it (build/thread-priority.ts): the
 * thread that asks gets the lowest priority, and only that thread.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

/** The nice value of one thread of this process, from /proc (field 19 of stat(5)). */
function niceOf(threadId: number): number {
  const stat = readFileSync(`/proc/self/task/${threadId}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

test('a thread that lowers its priority runs at nice 19, and the other threads of the process keep theirs', { skip: process.platform !== 'linux' && 'Linux schedules threads by their own priority' }, async () => {
  const module = new URL('../../packages/astro-agent-api/src/build/thread-priority.ts', import.meta.url).href;
  const worker = new Worker(
    `const { lowerThreadPriority } = await import(${JSON.stringify(module)});
     const { readFileSync } = await import('node:fs');
     const { parentPort } = await import('node:worker_threads');
     const lowered = lowerThreadPriority();
     parentPort.postMessage({ lowered, threadId: Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]) });
     parentPort.once('message', () => process.exit(0));`,
    { eval: true },
  );
  const { lowered, threadId } = (await new Promise((resolve) => worker.once('message', resolve))) as { lowered: boolean; threadId: number };
  try {
    assert.equal(lowered, true);
    assert.equal(niceOf(threadId), 19, 'the worker thread runs at the lowest priority');
    assert.equal(niceOf(process.pid), 0, 'the main thread (Astro\'s render) keeps its priority');
  } finally {
    worker.postMessage('stop');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
});
