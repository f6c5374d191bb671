/**
 * `npm start` as an operator runs it: with no build it publishes one (a release, and the build folder
 * a link to it) for the address it will serve (unless SITE_URL says otherwise); on an existing build for another address it says so in one line; SIGTERM
 * to npm, as a process manager sends it, stops every process it started and frees the port. The
 * builds go to a folder of their own (SITE_OUT_DIR), never to the repository's dist/.
 */
import assert from 'node:assert/strict';
import { lstat, mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { childEnv, startServerProcess, type ServerProcess } from '../helpers/child-process.ts';
import { findFreePort } from '../helpers/redis-server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the project: the built server imports the project's packages. */
const OUT_DIR = join(ROOT, 'tests', '.build', `npm-start-${process.pid}`, 'dist');
const SERVING = /Serving the site and the agent API at (http:\/\/\S+)/;

let dataDir: string;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-npm-start-'));
});

after(async () => {
  await rm(join(OUT_DIR, '..'), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

function npmStart(env: Record<string, string>, ready = SERVING): Promise<ServerProcess> {
  return startServerProcess('npm', ['start'], {
    cwd: ROOT,
    env: childEnv({ SITE_OUT_DIR: OUT_DIR, AGENT_API_DATA_DIR: dataDir, ...env }),
    ready,
    timeoutMs: 180_000,
  });
}

/** The processes below `pid`, from Linux's /proc (every thread's children). */
async function descendantsOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children = (
    await Promise.all(
      tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')),
    )
  ).flatMap((text) => text.split(' ').filter(Boolean).map(Number));
  return [...children, ...(await Promise.all(children.map(descendantsOf))).flat()];
}

/** A process that has exited: gone, or a zombie waiting for its parent to collect it. */
async function hasExited(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

/** Sends SIGTERM to npm itself and checks that npm, everything it started and the port are gone. */
async function assertStopsEverything(npm: ServerProcess, port?: number): Promise<void> {
  const started = await descendantsOf(npm.child.pid!);
  assert.ok(started.length > 0, 'npm start runs its script in a child process');
  await npm.stop('SIGTERM');
  const leftOver = async () => (await Promise.all(started.map(hasExited))).every(Boolean);
  assert.ok(
    await waitFor(leftOver, 12_000),
    `processes left running after SIGTERM to npm: ${started.join(', ')}\n${npm.output()}`,
  );
  if (port !== undefined)
    assert.equal(await portAnswers(port), false, `port ${port} still answers`);
}

describe('npm start', () => {
  let builtPort: number;

  it('builds, when there is no build, for the address it serves', async () => {
    builtPort = await findFreePort();
    const npm = await npmStart({ PORT: String(builtPort) });
    try {
      const site = `http://localhost:${builtPort}`;
      assert.match(npm.output(), new RegExp(`building the site for ${site} first`));
      // Published as `npm run build` publishes: the folder is a link to a release, which later publishes switch.
      assert.match(await readlink(OUT_DIR), /^\.dist-releases\/\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
      const manifest = JSON.parse(
        await readFile(join(OUT_DIR, 'agent-api', 'manifest.json'), 'utf8'),
      ) as { site: string };
      assert.equal(manifest.site.replace(/\/$/, ''), site);

      // The server accepts its own address, and publishes it.
      const page = await fetch(
        `${npm.url}/api/v1/read_page?url=${encodeURIComponent(`${site}/urgencias/`)}`,
      );
      assert.equal(page.status, 200);
      assert.equal(((await page.json()) as { url: string }).url, `${site}/urgencias/`);
      const metadata = (await (
        await fetch(`${npm.url}/.well-known/oauth-authorization-server`)
      ).json()) as { issuer: string };
      assert.equal(metadata.issuer, site);
      assert.doesNotMatch(
        npm.output(),
        /Note: /,
        'no note when the build publishes the served address',
      );
    } finally {
      await npm.stop();
    }
  });

  it('says in one line that an existing build publishes another address, and stops on SIGTERM to npm', async () => {
    const port = await findFreePort();
    const npm = await npmStart({ PORT: String(port), HOST: '127.0.0.1' });
    try {
      const notes = npm
        .output()
        .split('\n')
        .filter((line) => line.startsWith('Note: '));
      assert.equal(notes.length, 1, npm.output());
      assert.match(
        notes[0]!,
        new RegExp(
          `built for http://localhost:${builtPort},.* SITE_URL=http://127\\.0\\.0\\.1:${port} npm run build -- --outDir `,
        ),
      );
      assert.equal((await fetch(`${npm.url}/api/v1/read_page?url=urgencias`)).status, 200);
      await assertStopsEverything(npm, port);
    } finally {
      await npm.stop();
    }
  });

  it('stops the build it started on SIGTERM to npm', async () => {
    const emptyOutDir = join(OUT_DIR, '..', 'never-built');
    const npm = await startServerProcess('npm', ['start'], {
      cwd: ROOT,
      env: childEnv({
        SITE_OUT_DIR: emptyOutDir,
        AGENT_API_DATA_DIR: dataDir,
        PORT: String(await findFreePort()),
      }),
      // Astro's first line of the build: the build is running.
      ready: /No build found in .*\n[\s\S]*\[build\]/,
      timeoutMs: 120_000,
    });
    try {
      await assertStopsEverything(npm);
      assert.doesNotMatch(npm.output(), /Serving the site/);
      // The unfinished release is removed, and no link made.
      const left = await readdir(join(emptyOutDir, '..', '.never-built-releases')).catch(() => []);
      assert.deepEqual(
        left.filter((name) => !name.startsWith('.')),
        [],
        npm.output(),
      );
      await assert.rejects(lstat(emptyOutDir));
    } finally {
      await npm.stop();
    }
  });
});
