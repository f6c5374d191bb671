import type { RedirectRule } from './manifest.ts';
import {
  compileRoutePattern,
  fillRoutePattern,
  indexBySlug,
  trimRoute,
  type RoutePattern,
} from './route-pattern.ts';

/** A site's redirects (content/manifest.ts `RedirectRule`), for lookups by route and by slug. */
export interface RedirectIndex {
  /** The rules of one route, by that route: the first rule of a route wins, as the build lists them (Astro's `redirects` first). */
  exact: Map<string, RedirectRule>;
  /** The rules with parameters, most specific first (more segments without a parameter, a rest parameter last), then in the build's order. */
  patterns: { pattern: RoutePattern; rule: RedirectRule }[];
  /** Every trailing run of segments of a route of `exact` (`first-post`, `blog/first-post`) → the routes it ends, in order. */
  bySlug: Map<string, string[]>;
}

/** What a route is redirected to: its rule and the target with the route's parameters in it. */
export interface RedirectHop {
  rule: RedirectRule;
  location: string;
}

export const EMPTY_REDIRECTS: RedirectIndex = { exact: new Map(), patterns: [], bySlug: new Map() };

export function buildRedirectIndex(rules: readonly RedirectRule[]): RedirectIndex {
  const exact = new Map<string, RedirectRule>();
  const patterns: RedirectIndex['patterns'] = [];
  for (const rule of rules) {
    const pattern = compileRoutePattern(rule.from);
    if (!pattern.dynamic) {
      if (!exact.has(pattern.source)) exact.set(pattern.source, rule);
    } else patterns.push({ pattern, rule });
  }
  // Array.prototype.sort is stable: rules of the same rank keep the build's order.
  patterns.sort(
    (a, b) =>
      Number(a.pattern.rest) - Number(b.pattern.rest) ||
      b.pattern.staticSegments - a.pattern.staticSegments,
  );
  return {
    exact,
    patterns,
    bySlug: indexBySlug([...exact.keys()].map((route) => [route, route] as const)),
  };
}

/** The redirect of a route (no base, no trailing slash), or undefined when the site does not redirect it. */
export function findRedirect(index: RedirectIndex, route: string): RedirectHop | undefined {
  const key = trimRoute(route);
  const rule = index.exact.get(key);
  if (rule) return { rule, location: rule.to };
  for (const { pattern, rule: candidate } of index.patterns) {
    const params = pattern.match(key);
    if (params) return { rule: candidate, location: fillRoutePattern(candidate.to, params) };
  }
  return undefined;
}
