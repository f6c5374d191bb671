declare module 'virtual:agent-api/runtime' {
  /** The runtime shared by the injected endpoints and the middleware of one server process. */
  export const agentApi: import('../server/create-agent-api.ts').AgentApi;
}
