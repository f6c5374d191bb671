/**
 * Routes in Astro's pattern syntax, as its `redirects` write them: a route (`/old`) or a pattern with
 * parameters, `[name]` for a part of one segment (`/blog/[slug]`, `/[lang]-[slug]`) and `[...name]`
 * for a whole run of segments, none included (`/docs/[...path]` matches `/docs` and `/docs/a/b`).
 */
export interface RoutePattern {
  /** The pattern as written, without trailing slash. */
  source: string;
  /** True when it has parameters. */
  dynamic: boolean;
  /** Segments without a parameter: a pattern with more is more specific (Astro's route priority). */
  staticSegments: number;
  /** True when it ends in a rest parameter (`[...name]`): it ranks after those that do not. */
  rest: boolean;
  match(route: string): Record<string, string> | undefined;
}

const PARAMETER = /\[(\.\.\.)?([^\]]+)\]/g;

/** A route pattern, compiled once (the runtime matches many addresses against a site's patterns). */
export function compileRoutePattern(pattern: string): RoutePattern {
  const source = trimRoute(pattern);
  const names: string[] = [];
  let staticSegments = 0;
  let rest = false;
  const segments = source.split('/').filter(Boolean);
  const regex = segments
    .map((segment) => {
      const whole = /^\[\.\.\.([^\]]+)\]$/.exec(segment);
      if (whole) {
        names.push(whole[1]!);
        rest = true;
        return '(?:/(.*))?';
      }
      let part = '';
      let last = 0;
      let dynamic = false;
      for (const found of segment.matchAll(PARAMETER)) {
        part += escapeRegex(segment.slice(last, found.index));
        names.push(found[2]!);
        part += found[1] ? '(.*?)' : '([^/]+?)';
        last = found.index + found[0].length;
        dynamic = true;
      }
      part += escapeRegex(segment.slice(last));
      if (!dynamic) staticSegments++;
      return `/${part}`;
    })
    .join('');
  const compiled = new RegExp(`^${regex || '/'}$`, 'u');
  return {
    source,
    dynamic: names.length > 0,
    staticSegments,
    rest,
    match(route) {
      const found = compiled.exec(route);
      if (!found) return undefined;
      return Object.fromEntries(names.map((name, i) => [name, found[i + 1] ?? '']));
    },
  };
}

/** A target written with the pattern's parameters (`/new/[slug]`, `/docs/[...path]`) filled in; a rest parameter left empty takes its slash with it. */
export function fillRoutePattern(template: string, params: Record<string, string>): string {
  return template.replace(
    /\/?\[(\.\.\.)?([^\]]+)\]/g,
    (whole, spread: string | undefined, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      const slash = whole.startsWith('/') ? '/' : '';
      return spread && value === '' ? '' : `${slash}${value}`;
    },
  );
}

/**
 * Every trailing run of segments of each route (`first-post`, `blog/first-post` for `/blog/first-post`)
 * → the values of the routes it ends, in the order given: how a slug names what it ends.
 */
export function indexBySlug<T>(entries: Iterable<readonly [string, T]>): Map<string, T[]> {
  const bySlug = new Map<string, T[]>();
  for (const [route, value] of entries) {
    const segments = route.split('/').filter(Boolean);
    for (let start = 0; start < segments.length; start++) {
      const slug = segments.slice(start).join('/');
      const ending = bySlug.get(slug);
      if (ending) ending.push(value);
      else bySlug.set(slug, [value]);
    }
  }
  return bySlug;
}

/** A route without its trailing slash (`/` stays). */
export function trimRoute(route: string): string {
  const trimmed = route.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
