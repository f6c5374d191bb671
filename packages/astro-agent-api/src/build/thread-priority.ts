import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The lowest scheduling priority (the highest nice value) of setpriority(2). */
const LOWEST_PRIORITY = 19;

/**
 * Gives the calling thread the lowest scheduling priority, so that it runs only on CPU time no other
 * thread of the machine wants. Linux schedules threads, not processes: setpriority(2) with a thread's
 * id (the first field of /proc/thread-self/stat) changes that thread alone. A thread cannot raise its
 * priority again without privileges. Elsewhere, or where it is refused, nothing changes; returns
 * whether it did.
 */
export function lowerThreadPriority(): boolean {
  try {
    const threadId = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
    setPriority(threadId, LOWEST_PRIORITY);
    return true;
  } catch {
    return false;
  }
}
