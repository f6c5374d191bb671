// The modules a Worker build resolves (the site installs @astrojs/cloudflare; workerd provides
// cloudflare:workers), typed by what this package uses of them.
declare module '@astrojs/cloudflare/handler' {
  export function handle(
    request: Request,
    env: import('./workers-agent-api.ts').WorkersEnv,
    ctx: import('./workers-front.ts').WorkersContext,
  ): Promise<Response>;
}
