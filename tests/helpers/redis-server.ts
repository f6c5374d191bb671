import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Kills the server abruptly (SIGKILL), as a crash or a lost host would; the port stays reserved for `restart`. */
  kill(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing answers, as with a hung host. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Starts a fresh, empty server on the same port (after `kill`). */
  restart(): Promise<void>;
  /** Kills the server and removes its folder. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;
/** Servers still running when the test process ends (a failed test that never reached `stop`) die with it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a private `redis-server` on a free loopback port, in memory only (no RDB, no AOF), with its
 * own temporary folder: tests never touch a shared or already running Redis.
 */
export async function startTestRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-api-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // The free port is found by the OS, then handed to redis-server: another process may grab it in
  // between, so a failed start is retried on a new port.
  for (let attempt = 0; child === undefined; attempt++) {
    port = await findFreePort();
    try {
      child = await spawnRedis(port, dir);
    } catch (error) {
      if (attempt >= 4) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  async function kill(): Promise<void> {
    const current = child;
    child = undefined;
    if (current === undefined) return;
    running.delete(current);
    if (current.exitCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async restart() {
      await kill();
      child = await spawnRedis(port, dir);
    },
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function spawnRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--protected-mode',
      'yes',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(`could not run redis-server (apt-get install redis-server): ${error.message}`),
      ),
    );
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited with ${code} on port ${port}:\n${output}`)),
    );
  });
  spawnError.catch(() => {});
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const answered = await Promise.race([ping(port), spawnError]);
    if (answered) {
      child.removeAllListeners('exit');
      running.add(child);
      return child;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `redis-server did not answer PING on port ${port} within ${START_TIMEOUT_MS} ms:\n${output}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** True when a Redis on `port` answers PING with +PONG (raw RESP, so the helper does not depend on the client under test). */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
