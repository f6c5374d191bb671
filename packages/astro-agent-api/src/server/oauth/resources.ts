import { OAuthError } from './oauth-error.ts';

/**
 * RFC 8707 §2 — a resource indicator a request names, as this server's own spelling of it; any other
 * is `invalid_target`. Compared as URLs without a trailing slash: a client that parsed `https://site`
 * sends `https://site/`. A token here is good at every resource of the site, so the indicator is only
 * checked, and kept with the grant.
 */
export function findResource(requested: string, resources: readonly string[]): string {
  const key = comparable(requested);
  const found = resources.find((resource) => comparable(resource) === key);
  if (found === undefined)
    throw new OAuthError(
      400,
      'invalid_target',
      `resource ${JSON.stringify(requested.slice(0, 300))} is not served here: use one of ${resources.join(', ')} (RFC 8707).`,
    );
  return found;
}

function comparable(value: string): string {
  return URL.canParse(value) ? new URL(value).href.replace(/\/$/, '') : value;
}
