import { OAUTH_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import { callApi, searchQuery } from './api-client.ts';
import type { CheckContext, CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn } from './check-result.ts';
import { parseJson, type ApiFacts } from './discover-site.ts';
import { describeAnswer, mediaType } from './site-http.ts';

/** The token the other contract checks use once oauth-flow got one: their calls then spend the client's quota, not the anonymous one. */
const tokens = new WeakMap<CheckContext, string>();

export function tokenOf(context: CheckContext): string | undefined {
  return tokens.get(context);
}

function endpoint(
  context: CheckContext,
  api: ApiFacts,
  name:
    | 'registration_endpoint'
    | 'token_endpoint'
    | 'revocation_endpoint'
    | 'introspection_endpoint',
): string {
  const named = api.authorizationServer?.[name];
  const fallback = {
    registration_endpoint: OAUTH_PATHS.register,
    token_endpoint: OAUTH_PATHS.token,
    revocation_endpoint: OAUTH_PATHS.revoke,
    introspection_endpoint: OAUTH_PATHS.introspect,
  }[name];
  return typeof named === 'string' ? named : `${context.site.siteUrl}${fallback}`;
}

async function postForm(
  context: CheckContext,
  url: string,
  fields: Record<string, string>,
  client: { id: string; secret: string },
) {
  const answer = await context.http.fetch(url, {
    method: 'POST',
    fresh: true,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${btoa(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`)}`,
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { answer, json: parseJson(answer.text) };
}

export const oauthChecks: CheckRuns = {
  /** RFC 7591 §3 → RFC 6749 §4.4 → RFC 7662 §2 → RFC 7009 §2, and RFC 6750 §3 for the revoked token. */
  async 'oauth-flow'(context) {
    const api = context.site.api;
    if (!api) return skip(`not applicable: ${context.site.noApiReason}`);
    const steps: string[] = [];
    let client = context.options.client;
    if (!client) {
      const registered = await context.http.fetch(endpoint(context, api, 'registration_endpoint'), {
        method: 'POST',
        fresh: true,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: 'astro-agent-api check', contacts: [] }),
      });
      if (registered.status === 429) {
        return warn(
          `registration refused for now: this address registered too many clients (Retry-After ${registered.headers.get('retry-after') ?? '?'} s); set AGENT_API_CHECK_CLIENT_ID and AGENT_API_CHECK_CLIENT_SECRET to a registered client to check the flow without registering`,
        );
      }
      const json = parseJson(registered.text);
      if (
        registered.status !== 201 ||
        typeof json?.client_id !== 'string' ||
        typeof json.client_secret !== 'string'
      ) {
        return fail('registration does not give a client', [
          `POST ${describeAnswer(registered)} ${registered.text.slice(0, 200)}`,
        ]);
      }
      client = { id: json.client_id, secret: json.client_secret };
      steps.push('registered');
    }
    const tokenUrl = endpoint(context, api, 'token_endpoint');
    const issue = () =>
      postForm(
        context,
        tokenUrl,
        { grant_type: 'client_credentials', scope: 'content:read quota:read' },
        client,
      );
    const first = await issue();
    if (first.answer.status !== 200 || typeof first.json?.access_token !== 'string')
      return fail('the token endpoint gives no token', [
        `POST ${describeAnswer(first.answer)} ${first.answer.text.slice(0, 200)}`,
      ]);
    const problems: string[] = [];
    if (!/no-store/i.test(first.answer.headers.get('cache-control') ?? ''))
      problems.push('the token answer has no Cache-Control: no-store (RFC 6749 §5.1)');
    if (!/^bearer$/i.test(String(first.json.token_type)))
      problems.push(`token_type is ${JSON.stringify(first.json.token_type)}, not Bearer`);
    tokens.set(context, first.json.access_token);
    steps.push('token');

    const query = searchQuery(context, api) ?? 'test';
    const anonymous = context.site.home.headers.get('ratelimit-policy');
    const call = await callApi(
      context,
      api,
      'search_pages',
      { query, limit: '1' },
      first.json.access_token,
    );
    if (call.status !== 200)
      problems.push(`search_pages with the token → ${call.status}: ${call.text.slice(0, 160)}`);
    else if (anonymous && call.headers.get('ratelimit-policy') === anonymous)
      problems.push('the token call is counted under the anonymous policy');
    const quota = await callApi(context, api, 'get_quota', {}, first.json.access_token);
    if (quota.status !== 200 || typeof quota.json?.remaining !== 'number')
      problems.push(`get_quota with the token → ${quota.status}: ${quota.text.slice(0, 160)}`);
    steps.push('bearer call');

    const second = await issue();
    const revoked = second.json?.access_token as string | undefined;
    if (!revoked) return fail('a second token request fails', [describeAnswer(second.answer)]);
    const introspect = () =>
      postForm(
        context,
        endpoint(context, api, 'introspection_endpoint'),
        { token: revoked },
        client!,
      );
    const before = await introspect();
    if (before.json?.active !== true)
      problems.push(
        `introspection of a fresh token → ${before.answer.status} ${before.answer.text.slice(0, 120)}`,
      );
    else if (before.json.client_id !== client.id)
      problems.push(
        `introspection names client ${JSON.stringify(before.json.client_id)}, not ${client.id}`,
      );
    steps.push('introspect');
    const revoke = await postForm(
      context,
      endpoint(context, api, 'revocation_endpoint'),
      { token: revoked },
      client,
    );
    if (revoke.answer.status !== 200)
      problems.push(`revocation → ${revoke.answer.status} ${revoke.answer.text.slice(0, 120)}`);
    const after = await introspect();
    if (after.json?.active !== false)
      problems.push(
        `introspection of the revoked token → ${after.answer.status} ${after.answer.text.slice(0, 120)}`,
      );
    steps.push('revoke');
    const refused = await callApi(context, api, 'search_pages', { query, limit: '1' }, revoked);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    if (refused.status !== 401)
      problems.push(`a call with the revoked token → ${refused.status}, not 401`);
    else if (!/resource_metadata=/i.test(challenge))
      problems.push(
        `the 401 has no WWW-Authenticate resource_metadata (RFC 9728 §5.1): ${JSON.stringify(challenge)}`,
      );
    if (!/json/.test(mediaType(refused)))
      problems.push(`the 401 is ${mediaType(refused)}, not JSON`);
    steps.push('401 after revocation');
    return problems.length > 0
      ? fail(`the OAuth flow breaks (${problems.length} problem(s))`, problems)
      : pass(steps.join(' → '));
  },
};
