declare module 'virtual:agent-api/runtime' {
  /** The front over the runtime shared by the injected endpoints and the middleware of one server process. */
  export const agentFront: import('../server/agent-front.ts').AgentFront;
}
