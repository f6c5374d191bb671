/**
 * The releases of a build folder (hosts/node/releases.ts) and the publish and rollback commands'
 * arguments: the switch is one rename that a reader never sees half done, a folder built in place
 * becomes a release, pruning keeps the served release and the newest ones, one publish at a time.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import {
  runPublishCommand,
  runRollbackCommand,
} from '../../packages/astro-agent-api/src/hosts/node/publish-command.ts';
import {
  lockReleases,
  pruneReleases,
  readReleases,
  releaseNameAt,
  releasesFolderOf,
  switchRelease,
} from '../../packages/astro-agent-api/src/hosts/node/releases.ts';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-api-releases-'));
});
after(() => rm(root, { recursive: true, force: true }));

let sites = 0;
/** A site folder with `names` as releases (each holding `index.html` with its name), none served yet. */
async function siteWith(...names: string[]): Promise<string> {
  const site = join(root, `site-${++sites}`);
  const outDir = join(site, 'dist');
  for (const name of names) {
    await mkdir(join(releasesFolderOf(outDir), name), { recursive: true });
    await writeFile(join(releasesFolderOf(outDir), name, 'index.html'), name);
  }
  return outDir;
}

/** Names of releases an hour apart, oldest first. */
const names = (count: number) =>
  Array.from({ length: count }, (_, i) => releaseNameAt(new Date(Date.UTC(2027, 2, 1, 10 + i))));

function captureIo(cwd: string) {
  const io = { out: '', err: '' };
  return {
    io,
    args: {
      env: {},
      cwd,
      out: (text: string) => {
        io.out += text;
      },
      err: (text: string) => {
        io.err += text;
      },
    },
  };
}

describe('switching releases', () => {
  test('release names sort as the builds were made', () => {
    assert.equal(releaseNameAt(new Date('2027-03-01T09:05:07.042Z')), '2027-03-01T09-05-07-042Z');
    const [a, b] = names(2);
    assert.ok(a! < b!);
  });

  test('the output folder becomes a relative link to the release, and the folder of releases is hidden and ignored by git', async () => {
    const [a] = names(1);
    const outDir = await siteWith(a!);
    const unlock = await lockReleases(outDir);
    await switchRelease(outDir, a!);
    await unlock();
    assert.equal(await readlink(outDir), `.dist-releases/${a}`);
    assert.equal(await readFile(join(outDir, 'index.html'), 'utf8'), a);
    assert.equal(await readFile(join(releasesFolderOf(outDir), '.gitignore'), 'utf8'), '*\n');
    assert.deepEqual(await readReleases(outDir), { releases: [a], current: a });
  });

  test('a reader of the output folder never finds it missing or half switched while it is switched back and forth', async () => {
    const [a, b] = names(2);
    const outDir = await siteWith(a!, b!);
    await switchRelease(outDir, a!);
    // Another thread reads through the link as a server does, as fast as it can, while this one switches.
    const stopFlag = new SharedArrayBuffer(4);
    const reader = new Worker(
      `const { readFileSync } = require('node:fs');
       const { workerData, parentPort } = require('node:worker_threads');
       const stop = new Int32Array(workerData.stopFlag);
       const seen = {}; let failures = 0;
       parentPort.postMessage('reading');
       while (Atomics.load(stop, 0) === 0) {
         try { const name = readFileSync(workerData.file, 'utf8'); seen[name] = (seen[name] ?? 0) + 1; } catch { failures++; }
       }
       parentPort.postMessage({ seen, failures });`,
      { eval: true, workerData: { file: join(outDir, 'index.html'), stopFlag } },
    );
    const messages: unknown[] = [];
    const done = new Promise<{ seen: Record<string, number>; failures: number }>((resolve) =>
      reader.on('message', (message) => {
        messages.push(message);
        if (typeof message === 'object') resolve(message as never);
      }),
    );
    while (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 400; i++) await switchRelease(outDir, i % 2 === 0 ? b! : a!);
    Atomics.store(new Int32Array(stopFlag), 0, 1);
    const { seen, failures } = await done;
    await reader.terminate();
    assert.equal(failures, 0, 'every read found a release');
    assert.ok(
      (seen[a!] ?? 0) > 0 && (seen[b!] ?? 0) > 0,
      `both releases were read: ${JSON.stringify(seen)}`,
    );
    assert.deepEqual(Object.keys(seen).sort(), [a, b].sort());
  });

  test('a folder built in place is moved among the releases, named after its time, and the link takes its place', async () => {
    const [a] = names(1);
    const outDir = await siteWith(a!);
    await mkdir(outDir);
    await writeFile(join(outDir, 'index.html'), 'in place');
    const builtAt = new Date(Date.UTC(2027, 1, 1, 8));
    await utimes(outDir, builtAt, builtAt);
    const { movedInPlaceBuild } = await switchRelease(outDir, a!);
    assert.equal(movedInPlaceBuild, releaseNameAt(builtAt));
    assert.ok((await lstat(outDir)).isSymbolicLink());
    assert.equal(
      await readFile(join(releasesFolderOf(outDir), movedInPlaceBuild!, 'index.html'), 'utf8'),
      'in place',
    );
    assert.deepEqual(await readReleases(outDir), { releases: [movedInPlaceBuild, a], current: a });
  });

  test('a file where the output folder should be is refused, and left alone', async () => {
    const [a] = names(1);
    const outDir = await siteWith(a!);
    await writeFile(outDir, 'not a build');
    await assert.rejects(
      switchRelease(outDir, a!),
      /is a file, not a build folder or a link to a release/,
    );
    assert.equal(await readFile(outDir, 'utf8'), 'not a build');
  });
});

describe('pruning', () => {
  test('keeps the served release and the newest `keep` others, even when the served one is older (after a rollback)', async () => {
    const all = names(5);
    const outDir = await siteWith(...all);
    await switchRelease(outDir, all[1]!);
    assert.deepEqual(await pruneReleases(outDir, 2), [all[0], all[2]]);
    assert.deepEqual(await readReleases(outDir), {
      releases: [all[1], all[3], all[4]],
      current: all[1],
    });
    assert.deepEqual(await pruneReleases(outDir, 1), [all[3]]);
    assert.deepEqual((await readReleases(outDir)).releases, [all[1], all[4]]);
  });
});

describe('one publish at a time', () => {
  test('a second lock is refused while the first is held, naming the release being built, which is not listed as a release', async () => {
    const [a, building] = names(2);
    const outDir = await siteWith(a!, building!);
    const unlock = await lockReleases(outDir, building);
    await assert.rejects(
      lockReleases(outDir),
      new RegExp(`Another publish \\(process ${process.pid}\\) is building release ${building}`),
    );
    assert.deepEqual((await readReleases(outDir)).releases, [a]);
    await unlock();
    (await lockReleases(outDir))();
  });

  test('a lock left by a process that is gone is taken over, and the release it was building removed', async () => {
    const [a, unfinished] = names(2);
    const outDir = await siteWith(a!, unfinished!);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    await writeFile(
      join(releasesFolderOf(outDir), '.publish.lock'),
      JSON.stringify({ pid: Number(gone.stdout), building: unfinished }),
    );
    const unlock = await lockReleases(outDir);
    assert.deepEqual(
      (await readdir(releasesFolderOf(outDir))).filter((name) => !name.startsWith('.')),
      [a],
    );
    await unlock();
  });
});

describe('rollback', () => {
  test('switches to the release before the served one, then to an earlier one with --to; says what it cannot do, with the releases', async () => {
    const [a, b, c] = names(3);
    const outDir = await siteWith(a!, b!, c!);
    await switchRelease(outDir, c!);
    const site = join(outDir, '..');
    const first = captureIo(site);
    assert.equal(await runRollbackCommand([], first.args), 0);
    assert.equal(first.io.out, `Rolled back: dist → ${b} (was ${c}).\n`);
    assert.equal(await readFile(join(outDir, 'index.html'), 'utf8'), b);

    const unknown = captureIo(site);
    assert.equal(await runRollbackCommand(['--to', 'yesterday'], unknown.args), 1);
    assert.equal(
      unknown.io.err,
      `Cannot roll back: there is no release yesterday. The releases of dist:\n  ${a}\n  ${b}  (served)\n  ${c}\n`,
    );

    assert.equal(await runRollbackCommand(['--to', a!], captureIo(site).args), 0);
    const none = captureIo(site);
    assert.equal(await runRollbackCommand([], none.args), 1);
    assert.match(none.io.err, new RegExp(`no release was published before ${a}`));
    assert.equal(
      await runRollbackCommand(['--to', c!], captureIo(site).args),
      0,
      'and forward again',
    );
    assert.equal(await readFile(join(outDir, 'index.html'), 'utf8'), c);
  });

  test('a bad argument is exit code 2, with the usage', async () => {
    const { io, args } = captureIo(root);
    assert.equal(await runRollbackCommand(['--bogus'], args), 2);
    assert.match(io.err, /Usage: astro-agent-api rollback/);
  });
});

describe('publish arguments', () => {
  for (const [argv, message] of [
    [['--keep', '0'], /--keep must be a whole number of at least 1, not "0"/],
    [['--keep', 'two'], /--keep must be a whole number of at least 1, not "two"/],
    [['stray'], /Unexpected argument "stray": Astro's own options go after --/],
    [['--', '--outDir', 'elsewhere'], /--outDir is the publish command's own: give it before --/],
    [['--bogus'], /Unknown option '--bogus'/],
  ] as const) {
    test(`${argv.join(' ')} is refused with exit code 2, what to do and the usage, and builds nothing`, async () => {
      const { io, args } = captureIo(root);
      assert.equal(await runPublishCommand([...argv], args), 2);
      assert.match(io.err, message);
      assert.match(io.err, /Usage: astro-agent-api publish/);
      assert.equal(io.out, '');
    });
  }

  test('outside a site (no Astro installed) it says where to run it, and creates nothing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'agent-api-no-site-'));
    const { io, args } = captureIo(empty);
    assert.equal(await runPublishCommand([], args), 1);
    assert.match(io.err, /Astro is not installed in .*: run the command in your site's folder/);
    assert.deepEqual(await readdir(empty), []);
    await rm(empty, { recursive: true, force: true });
  });
});
