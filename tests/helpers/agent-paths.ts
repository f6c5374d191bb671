import type { AgentApi } from '../../packages/astro-agent-api/src/runtime.ts';

/**
 * Whether the runtime claims `path` rather than leaving it to the site, asked as a front asks
 * (AgentApi.answer): an OPTIONS request, which a claimed path answers at its method step (no
 * handler runs, nothing is counted) and the site gets as it is.
 */
export async function claims(api: AgentApi, path: string): Promise<boolean> {
  const answer = await api.answer(new Request(`http://localhost${path}`, { method: 'OPTIONS' }), {
    clientAddress: '192.0.2.99',
  });
  return answer.kind === 'response';
}
