/**
 * Netlify's edge in front of a served Netlify site: the Edge Functions a build wrote with the Frameworks
 * API (`.netlify/v1/edge-functions/`) run under Deno by Netlify's own local runtime,
 * @netlify/edge-functions-dev (what @astrojs/netlify's dev server runs: Netlify's declaration matching —
 * path, method, `header` — and its bootstrap, whose `context.next()` and URL rewrites call the origin),
 * and every request no function is declared for goes to the origin as it came, from the client's own
 * address. The origin is `netlify serve --offline`: Netlify's CDN (files, `_headers`) and the site's
 * function, which cannot run Edge Functions offline (its edge runtime imports a bootstrap from the network).
 *
 * Deno is the binary of npm's `deno` package in the site's node_modules; nothing is downloaded. Usage:
 * `node netlify-edge-server.ts <site root> <origin URL> <port>`; it prints `Ready on http://127.0.0.1:<port>`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

/** What the site's @netlify/edge-functions-dev exports, the parts used here (its main.d.ts). */
interface EdgeFunctionsHandler {
  match(
    request: Request,
  ): Promise<
    { handle(request: Request, originServerAddress: string): Promise<Response> } | undefined
  >;
  stop(): Promise<void>;
}

/** Headers of one hop (RFC 9110 §7.6.1): Node's server writes its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

const [rootArgument, originArgument, port] = process.argv.slice(2);
const root = resolve(rootArgument);
const origin = new URL(originArgument);

// @netlify/edge-functions-dev 1.0.24 starts Deno as `deno eval --allow-scripts …`, a flag `deno eval`
// refuses since Deno 2.9: the `deno` it finds first on PATH runs the site's Deno without that flag.
const deno = join(root, 'node_modules/deno/deno');
if (!existsSync(deno))
  throw new Error(
    `${deno} is missing: the deno package's install script links it (allowScripts in the site's package.json)`,
  );
const shimDir = await mkdtemp(join(tmpdir(), 'agent-api-deno-'));
await writeFile(
  join(shimDir, 'deno'),
  `#!/bin/sh\nfor arg do\n  shift\n  [ "$arg" = --allow-scripts ] && continue\n  set -- "$@" "$arg"\ndone\nexec ${JSON.stringify(deno)} "$@"\n`,
);
await chmod(join(shimDir, 'deno'), 0o755);
process.env.PATH = `${shimDir}:${process.env.PATH ?? ''}`;

const modulePath = createRequire(join(root, 'package.json')).resolve('@netlify/edge-functions-dev');
const { EdgeFunctionsHandler } = (await import(pathToFileURL(modulePath).href)) as {
  EdgeFunctionsHandler: new (options: object) => EdgeFunctionsHandler;
};
const edge = new EdgeFunctionsHandler({
  configDeclarations: [],
  directories: [join(root, '.netlify/v1/edge-functions')],
  env: {},
  geolocation: {},
  logger: { log: console.log, warn: console.warn, error: console.error },
});

/** A request as the edge functions see it, with the request id Netlify's edge gives every request. */
function webRequest(request: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'host' && !HOP_BY_HOP.has(name))
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set('x-nf-request-id', randomUUID());
  // Only GET and HEAD are declared by the functions under test: a request with a body goes to the origin as it came.
  return new Request(new URL(request.url!, `http://${request.headers.host}`), {
    method: request.method,
    headers,
  });
}

async function send(response: Response, to: ServerResponse): Promise<void> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  to.writeHead(response.status, headers.flat());
  if (!response.body) return void to.end();
  Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(to);
}

/** The origin's answer to the request as it came, from the client's address (the origin names the client by its connection). */
function passThrough(request: IncomingMessage, response: ServerResponse): void {
  const upstream = forward(
    {
      host: origin.hostname,
      port: origin.port,
      method: request.method,
      path: request.url,
      headers: request.headers,
      localAddress: request.socket.remoteAddress,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(response);
    },
  );
  upstream.on('error', (error) => response.destroy(error));
  request.pipe(upstream);
}

const server = createServer((request, response) => {
  void (async () => {
    const asked = webRequest(request);
    const matched = await edge.match(asked);
    if (!matched) return passThrough(request, response);
    await send(await matched.handle(asked, origin.href), response);
  })().catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'text/plain' });
    response.end(String(error));
  });
});
server.listen(Number(port), '127.0.0.1', () => console.log(`Ready on http://127.0.0.1:${port}`));

process.once('SIGTERM', () => {
  server.close();
  void edge
    .stop()
    .then(() => rm(shimDir, { recursive: true, force: true }))
    .finally(() => process.exit(0));
});
