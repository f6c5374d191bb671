const DAY_MS = 86_400_000;

/** The UTC day of a time, `YYYY-MM-DD`: the unit traffic is counted and kept by. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC day `days` whole days before the day of `ms`. */
export function utcDayBefore(ms: number, days: number): string {
  return utcDay(ms - days * DAY_MS);
}
