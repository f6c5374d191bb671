import { parseList } from 'structured-headers';
import { callApi, searchQuery, type ApiAnswer } from './api-client.ts';
import { withApi, type CheckRuns } from './check-context.ts';
import { fail, pass, skip } from './check-result.ts';
import { mediaType } from './site-http.ts';

/** One policy as RateLimit and RateLimit-Policy state it (draft-ietf-httpapi-ratelimit-headers). */
interface QuotaState {
  policy: string;
  /** Requests left and seconds to the reset (RateLimit). */
  r: number;
  t: number;
  /** Quota and window (RateLimit-Policy). */
  q: number;
  w: number;
}

/** The most requests --exhaust-quota sends to reach a 429. */
const MAX_EXHAUSTING_REQUESTS = 1000;

/** RFC 9651 (structured fields) — the first item of RateLimit and RateLimit-Policy, or the lines saying what does not parse. */
export function readQuotaState(answer: ApiAnswer): { state?: QuotaState; problems: string[] } {
  const problems: string[] = [];
  const item = (name: string, keys: string[]) => {
    const value = answer.headers.get(name);
    if (value === null) {
      problems.push(`no ${name} header`);
      return undefined;
    }
    try {
      const [first] = parseList(value);
      if (!first || Array.isArray(first[0])) throw new Error('not a list of items');
      const [policy, parameters] = first as [unknown, Map<string, unknown>];
      const numbers = keys.map((key) => parameters.get(key));
      if (typeof policy !== 'string' || !numbers.every((number) => Number.isInteger(number)))
        throw new Error(`needs a quoted policy name and integer ${keys.join(', ')}`);
      return { policy, numbers: numbers as number[] };
    } catch (error) {
      problems.push(
        `${name}: ${JSON.stringify(value)} is not a structured field list (${(error as Error).message})`,
      );
      return undefined;
    }
  };
  const limit = item('ratelimit', ['r', 't']);
  const policy = item('ratelimit-policy', ['q', 'w']);
  if (!limit || !policy) return { problems };
  const state = {
    policy: limit.policy,
    r: limit.numbers[0]!,
    t: limit.numbers[1]!,
    q: policy.numbers[0]!,
    w: policy.numbers[1]!,
  };
  if (limit.policy !== policy.policy)
    problems.push(`RateLimit names policy "${limit.policy}", RateLimit-Policy "${policy.policy}"`);
  if (state.r < 0 || state.r > state.q) problems.push(`r=${state.r} is outside 0..q=${state.q}`);
  if (state.t < 0 || state.t > state.w) problems.push(`t=${state.t} is outside 0..w=${state.w}`);
  const legacy = {
    'ratelimit-limit': state.q,
    'ratelimit-remaining': state.r,
    'ratelimit-reset': state.t,
  };
  for (const [name, expected] of Object.entries(legacy)) {
    const value = answer.headers.get(name);
    if (value === null) problems.push(`no ${name} header`);
    else if (Number(value) !== expected)
      problems.push(`${name}: ${value}, but the structured fields say ${expected}`);
  }
  return { state, problems };
}

export const quotaChecks: CheckRuns = {
  'rate-limit-headers': withApi(async (context, api) => {
    const query = searchQuery(context, api) ?? 'test';
    const first = await callApi(context, api, 'search_pages', { query, limit: '1' });
    const second = await callApi(context, api, 'search_pages', { query, limit: '1' });
    if (first.status !== 200 || second.status !== 200)
      return fail('search_pages does not answer 200 anonymously', [
        `${first.status} then ${second.status}: ${second.text.slice(0, 160)}`,
      ]);
    const a = readQuotaState(first);
    const b = readQuotaState(second);
    const problems = [
      ...a.problems.map((line) => `first answer: ${line}`),
      ...b.problems.map((line) => `second answer: ${line}`),
    ];
    if (a.state && b.state && !(b.state.r < a.state.r || b.state.t > a.state.t))
      problems.push(
        `two calls in a row: r went ${a.state.r} → ${b.state.r} within the same window`,
      );
    const version = first.headers.get('api-version');
    const declared = api.openapi.info?.['x-api-version'];
    if (version === null) problems.push('no API-Version header');
    else if (declared !== undefined && String(declared) !== version)
      problems.push(`API-Version: ${version}, openapi.json says ${declared}`);
    if (problems.length > 0 || !b.state)
      return fail(`the quota headers do not add up (${problems.length} problem(s))`, problems);
    return pass(
      `"${b.state.policy}": ${b.state.r} of ${b.state.q} left, reset in ${b.state.t} of ${b.state.w} s, counting down; API-Version ${version}`,
    );
  }),

  'rate-limit-429': withApi(async (context, api) => {
    if (!context.options.exhaustQuota)
      return skip(
        "not run: it spends the anonymous quota of this address; pass --exhaust-quota to see the 429 (the headers' arithmetic is checked by rate-limit-headers)",
      );
    const query = searchQuery(context, api) ?? 'test';
    let answer: ApiAnswer | undefined;
    let sent = 0;
    for (; sent < MAX_EXHAUSTING_REQUESTS; sent++) {
      answer = await callApi(context, api, 'search_pages', { query, limit: '1' });
      if (answer.status !== 200) break;
    }
    if (answer?.status !== 429)
      return fail(
        `no 429 after ${sent + 1} requests`,
        answer ? [`last answer ${answer.status}`] : [],
      );
    const problems: string[] = [];
    const retryAfter = answer.headers.get('retry-after');
    const { state, problems: headerProblems } = readQuotaState(answer);
    problems.push(...headerProblems);
    if (
      retryAfter === null ||
      !/^\d+$/.test(retryAfter) ||
      Number(retryAfter) < 1 ||
      (state && Number(retryAfter) > state.w)
    )
      problems.push(
        `Retry-After: ${JSON.stringify(retryAfter)}, not whole seconds within the window`,
      );
    if (state && state.r !== 0) problems.push(`RateLimit r=${state.r} on a 429`);
    if (
      !/json/.test(mediaType(answer)) ||
      typeof answer.json?.code !== 'string' ||
      answer.json?.data?.status !== 429
    )
      problems.push(`the 429 is not a JSON Error: ${answer.text.slice(0, 160)}`);
    return problems.length > 0
      ? fail('the 429 is incomplete', problems)
      : pass(
          `429 after ${sent + 1} requests, Retry-After ${retryAfter} s, JSON error ${answer.json!.code}`,
        );
  }),
};
