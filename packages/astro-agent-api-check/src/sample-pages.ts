import type { CheckOptions } from './check-options.ts';

/**
 * The pages the per-page checks fetch. `deterministic` (the default): the home page, then pages
 * evenly spaced through the sorted list, so two runs on the same site check the same pages and a
 * large site is covered from end to end; `random`: a new draw each run; `none`: every page.
 */
export function samplePages(
  pages: readonly string[],
  home: string,
  options: Pick<CheckOptions, 'sampling' | 'maxPages'>,
): string[] {
  const sorted = [...new Set(pages)].sort();
  if (options.sampling === 'none' || sorted.length <= options.maxPages)
    return withHomeFirst(sorted, home);
  const rest = sorted.filter((page) => page !== home);
  const wanted = options.maxPages - 1;
  if (options.sampling === 'random') {
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [rest[i], rest[j]] = [rest[j]!, rest[i]!];
    }
    return [home, ...rest.slice(0, wanted)];
  }
  const picks = new Set<string>();
  for (let i = 0; i < wanted; i++)
    picks.add(rest[Math.round((i * (rest.length - 1)) / Math.max(1, wanted - 1))]!);
  return [home, ...picks];
}

function withHomeFirst(pages: string[], home: string): string[] {
  return pages.includes(home) ? [home, ...pages.filter((page) => page !== home)] : pages;
}
