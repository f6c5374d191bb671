/**
 * Serves a Build Output API v3 folder (`.vercel/output`, what `astro build` writes with @astrojs/vercel)
 * the way Vercel documents it (https://vercel.com/docs/build-output-api/configuration#routes), for the
 * parts an Astro site's output uses: `config.json`'s routes in order (`src` matched without regard to
 * case, `has`/`missing` header conditions, `headers`, `continue`, `dest`, `status`), then the filesystem
 * (`static/`, a folder's `index.html`, with Vercel's default `Cache-Control` for static files and an
 * ETag; the functions by name), then the routes after
 * `{ "handle": "filesystem" }` for what the filesystem does not have. A function is its `.func` folder's
 * `.vc-config.json` handler, loaded with the function folder as working directory and called with a
 * web-standard Request (Vercel's Node.js launcher for a module whose default export has `fetch`), with
 * `X-Real-IP` and `X-Forwarded-For` set to the connection's address, replacing what the client sent.
 *
 * `vercel dev` needs a login and a linked project, and no package of npm runs a Build Output folder: the
 * tests run this one. Usage: `node vercel-output-server.ts <.vercel/output> <port>`; it prints
 * `Ready on http://127.0.0.1:<port>`.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

interface Condition {
  type: string;
  key: string;
  value?: string | { re?: string; eq?: string; inc?: string[] };
}

interface Route {
  src?: string;
  dest?: string;
  headers?: Record<string, string>;
  methods?: string[];
  has?: Condition[];
  missing?: Condition[];
  continue?: boolean;
  status?: number;
  handle?: string;
}

type FunctionEntry = { fetch(request: Request): Promise<Response> };

/** What Vercel serves each static file as, by its extension (the files an Astro build writes). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
};

const [outputArgument, port] = process.argv.slice(2);
const outputDir = resolve(outputArgument);
const config = JSON.parse(await readFile(join(outputDir, 'config.json'), 'utf8')) as {
  routes?: Route[];
};
const phases = splitPhases(config.routes ?? []);
const functions = new Map<string, Promise<FunctionEntry>>();

/** The routes of each phase: those before the first `handle` are the main phase (`null`). */
function splitPhases(routes: Route[]): Map<string | null, Route[]> {
  const map = new Map<string | null, Route[]>([[null, []]]);
  let phase: string | null = null;
  for (const route of routes) {
    if (route.handle) {
      phase = route.handle;
      map.set(phase, []);
    } else map.get(phase)!.push(route);
  }
  return map;
}

function conditionHolds(condition: Condition, headers: Headers): boolean {
  if (condition.type !== 'header')
    throw new Error(`This runner knows header conditions only, not ${condition.type}.`);
  const actual = headers.get(condition.key);
  if (actual === null) return false;
  const { value } = condition;
  if (value === undefined) return true;
  if (typeof value === 'string') return new RegExp(`^(?:${value})$`).test(actual);
  if (value.re !== undefined) return new RegExp(value.re).test(actual);
  if (value.eq !== undefined) return actual === value.eq;
  if (value.inc !== undefined) return value.inc.includes(actual);
  throw new Error(`This runner does not know the condition ${JSON.stringify(value)}.`);
}

interface Routed {
  path: string;
  headers: Record<string, string>;
  status?: number;
  /** A route without `continue` matched: routing of this phase ends. */
  done: boolean;
}

/** One phase's routes over a path, as the documentation orders them. */
function runPhase(
  routes: readonly Route[],
  request: Request,
  path: string,
  headers: Record<string, string>,
): Routed {
  const routed: Routed = { path, headers, done: false };
  for (const route of routes) {
    if (route.methods && !route.methods.includes(request.method)) continue;
    const match = new RegExp(route.src!, 'i').exec(routed.path);
    if (!match) continue;
    if (route.has && !route.has.every((condition) => conditionHolds(condition, request.headers)))
      continue;
    if (route.missing?.some((condition) => conditionHolds(condition, request.headers))) continue;
    const fill = (text: string) =>
      text.replace(/\$(\d+)/g, (_, index: string) => match[Number(index)] ?? '');
    for (const [name, value] of Object.entries(route.headers ?? {}))
      routed.headers[name.toLowerCase()] = fill(value);
    if (route.status) routed.status = route.status;
    if (route.dest)
      routed.path = fill(route.dest)
        .split('?')[0]
        .replace(/^(?!\/)/, '/');
    if (!route.continue) return { ...routed, done: true };
  }
  return routed;
}

/** A static file of `static/` at this path (a folder's `index.html` for a folder), or a function by name. */
function findInFilesystem(path: string): { file: string } | { functionDir: string } | undefined {
  const functionDir = join(
    outputDir,
    'functions',
    `${decodeURIComponent(path).replace(/^\//, '')}.func`,
  );
  if (existsSync(join(functionDir, '.vc-config.json'))) return { functionDir };
  const file = join(outputDir, 'static', decodeURIComponent(path));
  if (!file.startsWith(join(outputDir, 'static'))) return undefined;
  if (existsSync(file) && statSync(file).isFile()) return { file };
  if (existsSync(join(file, 'index.html'))) return { file: join(file, 'index.html') };
  return undefined;
}

function loadFunction(functionDir: string): Promise<FunctionEntry> {
  let loaded = functions.get(functionDir);
  if (!loaded) {
    loaded = (async () => {
      const vc = JSON.parse(await readFile(join(functionDir, '.vc-config.json'), 'utf8')) as {
        handler: string;
        launcherType: string;
      };
      if (vc.launcherType !== 'Nodejs')
        throw new Error(`This runner runs Node.js functions only, not ${vc.launcherType}.`);
      // Vercel runs a function from its own folder (/var/task): it reads its files relative to it.
      process.chdir(functionDir);
      const module = (await import(pathToFileURL(join(functionDir, vc.handler)).href)) as {
        default?: FunctionEntry;
      };
      if (typeof module.default?.fetch !== 'function')
        throw new Error(`${vc.handler} has no default export with fetch.`);
      return module.default;
    })();
    functions.set(functionDir, loaded);
  }
  return loaded;
}

/** A static file as Vercel's CDN sends it: revalidated on every use (its default Cache-Control), with an ETag. */
async function serveStatic(request: Request, file: string): Promise<Response> {
  const content = await readFile(file);
  const etag = `"${createHash('sha1').update(content).digest('hex')}"`;
  const headers = {
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': 'public, max-age=0, must-revalidate',
    ETag: etag,
  };
  if (request.headers.get('if-none-match') === etag)
    return new Response(null, { status: 304, headers });
  return new Response(request.method === 'HEAD' ? null : content, { headers });
}

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  let routed = runPhase(phases.get(null)!, request, url.pathname, {});
  let found = findInFilesystem(routed.path);
  if (!found) {
    routed = runPhase(phases.get('filesystem') ?? [], request, routed.path, routed.headers);
    found = findInFilesystem(routed.path);
  }
  let response: Response;
  if (!found)
    response = new Response('The page could not be found.\n\nNOT_FOUND\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  else if ('file' in found) response = await serveStatic(request, found.file);
  else response = await (await loadFunction(found.functionDir)).fetch(request);
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(routed.headers)) headers.set(name, value);
  return new Response(response.body, {
    status: routed.status ?? response.status,
    statusText: response.statusText,
    headers,
  });
}

function toRequest(incoming: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // Vercel names the client by the connection, whatever the client sent.
  const address = incoming.socket.remoteAddress ?? '';
  headers.set('x-real-ip', address);
  headers.set('x-forwarded-for', address);
  headers.set('x-forwarded-proto', 'https');
  headers.set('x-forwarded-host', incoming.headers.host ?? '');
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  return new Request(new URL(incoming.url!, `http://${incoming.headers.host}`), {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  outgoing.writeHead(response.status, headers);
  if (!response.body) return void outgoing.end();
  await new Promise<void>((resolve, reject) =>
    Readable.fromWeb(response.body as never)
      .pipe(outgoing)
      .on('finish', resolve)
      .on('error', reject),
  );
}

const server = createServer((incoming, outgoing) => {
  answer(toRequest(incoming))
    .then((response) => send(response, outgoing))
    .catch((error: unknown) => {
      // What Vercel answers for a function that throws: a 500 with its error code, logged.
      console.error(error);
      if (!outgoing.headersSent)
        outgoing.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      outgoing.end('A server error has occurred\n\nFUNCTION_INVOCATION_FAILED\n');
    });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`Ready on http://127.0.0.1:${port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
