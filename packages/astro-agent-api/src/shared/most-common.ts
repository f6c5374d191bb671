/** The value that occurs most often, the first one seen on a tie; `undefined` for no values. */
export function mostCommon(values: readonly string[]): string | undefined {
  return rankByCount(values)[0];
}

/** The distinct values, `first` leading when it is one of them, then the commonest first (ties in order of appearance). */
export function rankByCount(values: readonly string[], first?: string): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  if (first !== undefined && counts.has(first)) counts.set(first, Infinity);
  return [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)!);
}
