import type { AgentApiUserOptions } from 'astro-agent-api/contract';
import { companyInfo } from './company.ts';

/** The demo's options of the astro-agent-api integration: astro.config.mjs passes them, the developer page shows them. */
export const agentApiOptions = {
  company: companyInfo,
} satisfies AgentApiUserOptions;
