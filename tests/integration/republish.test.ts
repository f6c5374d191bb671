/**
 * An editor republishes while the site is served (issue 31, item 6): a copy of the demo site is
 * published (`astro-agent-api publish`, as `npm run build`), served by startServer (npm start's
 * server), edited and published again, while a poller asks every 0.5 s for the edited page
 * (compressed and not), its twin (`.md` and `Accept: text/markdown`), a search, read_page, a page
 * rendered on demand by Astro's handler, and the browser search's files. Nothing answers other than
 * 200, and the edit shows in every one of them at one moment: no answer after that moment is of the
 * previous build. Then a rollback switches everything back, while a request that started on the new
 * build finishes on it; a failed publish changes nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startServer, type AgentServer } from 'astro-agent-api/node';
import { childEnv, runCommand } from '../helpers/child-process.ts';
import {
  failuresOf,
  startPolling,
  type PollAnswer,
  type PollLog,
} from '../helpers/republish-poller.ts';
import {
  copyDemoSite,
  EDITED_PAGE,
  editDemoPage,
  pagefindFragmentOf,
  republishTargets,
  SHOWS_THE_EDIT,
} from '../helpers/republish-site.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'packages', 'astro-agent-api', 'dist', 'cli.js');
const site = join(ROOT, 'tests', '.build', `republish-${process.pid}`);
const outDir = join(site, 'dist');
const releasesDir = join(site, '.dist-releases');
const WORD = 'zarzaparrilla';
/** A page Astro renders on demand: it says which build answered, after `?wait=` ms. */
const MARK_PAGE = '/marca-de-build';

let server: AgentServer;
let dataDir: string;

async function writeMarkPage(mark: string): Promise<void> {
  await writeFile(
    join(site, 'src', 'pages', 'marca-de-build.ts'),
    [
      'export const prerender = false;',
      'export async function GET({ url }: { url: URL }) {',
      "  await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get('wait') ?? 0)));",
      `  return new Response(${JSON.stringify(mark)}, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });`,
      '}',
    ].join('\n'),
  );
}

const publish = (...args: string[]) =>
  runCommand(process.execPath, [CLI, 'publish', ...args], { cwd: site, env: childEnv() });
const servedRelease = async () => (await readlink(outDir)).split('/').at(-1)!;
const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(new URL(path, server.url), { headers });
  return { status: response.status, text: await response.text() };
};

/** Polls until `done` holds of what `path` answers, at most `timeoutMs`; returns the last answer. */
async function waitFor(path: string, done: (text: string) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let answer = await get(path);
  while (!done(answer.text) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await get(path);
  }
  return answer;
}

before(async () => {
  await copyDemoSite(site);
  await writeMarkPage('primera');
  await publish();
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-republish-'));
  // Each surface is asked for twice a second for a minute: far above the anonymous quota.
  server = await startServer({
    outDir,
    host: '127.0.0.1',
    port: 0,
    env: { ...process.env, AGENT_API_DATA_DIR: dataDir, AGENT_API_QUOTA_ANONYMOUS: '1000000' },
  });
});

after(async () => {
  await server?.close();
  await rm(site, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('republishing while startServer serves the site', () => {
  let first: string;
  let second: string;

  it('answers every page, twin, search and browser-search file 200 throughout, and shows the edit in all of them at one moment', async () => {
    first = await servedRelease();
    const entryBefore = (await get('/pagefind/pagefind-entry.json')).text;
    const targets = [
      ...republishTargets(WORD, await pagefindFragmentOf(join(outDir, 'client'), '/precios/')),
      { name: 'on demand', path: MARK_PAGE },
    ];
    const isNew = (answer: PollAnswer) =>
      answer.name === 'on demand' ? answer.text === 'segunda' : answer.text.includes(WORD);
    const showsEdit = (answer: PollAnswer) =>
      answer.name === 'on demand' || SHOWS_THE_EDIT.has(answer.name);

    await editDemoPage(site, WORD);
    await writeMarkPage('segunda');
    const poller = startPolling(server.url, targets, 500);
    let log: PollLog;
    try {
      await publish();
      // Polled on after the switch until the server has followed it, and a few rounds more.
      await waitFor(`/api/v1/read_page?url=${EDITED_PAGE}`, (text) => text.includes(WORD));
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } finally {
      log = await poller.stop();
    }
    second = await servedRelease();
    assert.notEqual(second, first, 'the output folder links to the new release');

    const failures = failuresOf(log);
    assert.deepEqual(
      failures.map(
        ({ name, status, sentMs }) => `${name}: ${status} at ${(sentMs / 1000).toFixed(1)} s`,
      ),
      [],
      `every answer is 200 while the site is rebuilt (${log.rounds.length} rounds)`,
    );
    assert.ok(
      log.rounds.length >= 10,
      `the poller asked during the whole build (${log.rounds.length} rounds)`,
    );

    // One moment: once any answer is of the new build, every answer of every later round is (a round
    // starts when the one before has answered; the answers of the round of the switch may differ).
    const rounds = log.rounds.map((round) => round.filter(showsEdit));
    const switched = rounds.findIndex((round) => round.some(isNew));
    assert.ok(
      switched > 0,
      `the previous build answered until the switch, then the new one (round ${switched} of ${rounds.length})`,
    );
    for (const [index, round] of rounds.entries()) {
      const stale = round.filter((answer) => !isNew(answer)).map((answer) => answer.name);
      if (index > switched)
        assert.deepEqual(
          stale,
          [],
          `round ${index}, after the switch in round ${switched}, answered from the previous build`,
        );
    }

    // The browser search's index is the new build's too: its entry changed, and the edited page's fragment has the edit.
    assert.notEqual((await get('/pagefind/pagefind-entry.json')).text, entryBefore);
    const fragment = await fetch(
      new URL(
        `/pagefind/fragment/${await pagefindFragmentOf(join(outDir, 'client'), EDITED_PAGE)}`,
        server.url,
      ),
    );
    assert.equal(fragment.status, 200);
    assert.match(
      gunzipSync(new Uint8Array(await fragment.arrayBuffer())).toString('utf8'),
      new RegExp(WORD),
    );

    const releases = (await readdir(releasesDir)).filter((name) => !name.startsWith('.'));
    assert.deepEqual(
      releases.sort(),
      [first, second].sort(),
      'the previous release is kept for a rollback',
    );
  });

  it('rolls every surface back at one switch, and a request in flight finishes on the build it started on', async () => {
    const slow = get(`${MARK_PAGE}?wait=3000`);
    // Inside Astro's handler of the new build by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { stdout } = await runCommand(process.execPath, [CLI, 'rollback'], {
      cwd: site,
      env: childEnv(),
    });
    assert.match(stdout, new RegExp(`Rolled back: dist → ${first} \\(was ${second}\\)`));
    assert.equal(await servedRelease(), first);

    assert.equal(
      (await waitFor(MARK_PAGE, (text) => text === 'primera')).text,
      'primera',
      'new requests are answered by the release rolled back to',
    );
    assert.deepEqual(
      await slow,
      { status: 200, text: 'segunda' },
      'the request in flight finished on the release it started on',
    );
    for (const [path, headers] of [
      [EDITED_PAGE, {}],
      [`/${EDITED_PAGE.replaceAll('/', '')}.md`, {}],
      [EDITED_PAGE, { Accept: 'text/markdown' }],
      [`/api/v1/read_page?url=${EDITED_PAGE}`, {}],
    ] as const) {
      const answer = await get(path, headers);
      assert.equal(answer.status, 200);
      assert.doesNotMatch(
        answer.text,
        new RegExp(WORD),
        `${path} is of the release rolled back to`,
      );
    }
  });

  it('a publish whose build fails changes nothing: the same release is served, and none is added', async () => {
    const releasesBefore = await readdir(releasesDir);
    await assert.rejects(
      publish('--', '--config', 'no-such-config.mjs'),
      /The build failed \(exit code 1\): release \S+ removed; dist is unchanged/,
    );
    assert.equal(await servedRelease(), first);
    assert.deepEqual((await readdir(releasesDir)).sort(), releasesBefore.sort());
    assert.equal((await get(EDITED_PAGE)).status, 200);
  });
});
