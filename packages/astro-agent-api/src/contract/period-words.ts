/**
 * The periods of the contract (limits.ts) as the documents say them, so that a changed limit changes
 * every sentence that states it. A leaf: it imports nothing.
 */

const UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** A length of time in the largest unit that divides it: 3600 → `1 hour`, 120 → `2 minutes`, 90 → `90 seconds`. */
export function formatDuration(seconds: number): string {
  const [unit, size] = UNITS.find(([, size]) => seconds % size === 0) ?? UNITS[UNITS.length - 1];
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The window of a rate: 60 → `per minute`, 3600 → `per hour`, 120 → `per 2 minutes`. */
export function formatPerPeriod(seconds: number): string {
  const duration = formatDuration(seconds);
  return `per ${duration.startsWith('1 ') ? duration.slice(2) : duration}`;
}
