import type { AgentApi } from '../../../packages/astro-agent-api/src/server/create-agent-api.ts';

/** A made-up platform's request and answer: an event in, a plain object out, as some function platforms have them. */
export interface TestEvent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  sourceIp: string;
}
export interface TestResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The test host's front: its I/O converted, one question to the runtime, the site's answer with its page's headers. */
export function createTestFront(
  api: AgentApi,
  site: (event: TestEvent) => Promise<TestResult>,
): (event: TestEvent) => Promise<TestResult> {
  return async (event) => {
    const request = new Request(event.url, {
      method: event.method,
      headers: event.headers,
      ...(event.body !== undefined && { body: event.body }),
    });
    const answer = await api.answer(request, { clientAddress: event.sourceIp });
    if (answer.kind === 'response')
      return {
        status: answer.response.status,
        headers: Object.fromEntries(answer.response.headers),
        body: await answer.response.text(),
      };
    const result = await site(event);
    if (answer.kind === 'site' || !result.headers['content-type']?.startsWith('text/html'))
      return result;
    answer.sent(result.status);
    return {
      ...result,
      headers: {
        ...result.headers,
        ...Object.fromEntries(
          Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]),
        ),
      },
    };
  };
}
