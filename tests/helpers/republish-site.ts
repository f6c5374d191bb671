import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { PollTarget } from './republish-poller.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The page an editor changes between two builds, and the file it is written in. */
export const EDITED_PAGE = '/urgencias/';
const EDITED_SOURCE = join('src', 'pages', 'urgencias.astro');
/** Where the edit goes: the start of the page's main text. */
const EDIT_ANCHOR = '<div class="prose">';

/**
 * A copy of the demo site (its sources, public files and configuration) in `root`, a folder inside the
 * repository so that its build resolves the repository's packages. Replaces what was there.
 */
export async function copyDemoSite(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  for (const entry of ['src', 'public', 'astro.config.mjs'])
    await cp(join(ROOT, entry), join(root, entry), { recursive: true });
}

/** Writes `word` in a sentence at the top of the edited page's text, as an editor would before republishing. */
export async function editDemoPage(root: string, word: string): Promise<void> {
  const file = join(root, EDITED_SOURCE);
  const source = await readFile(file, 'utf8');
  if (!source.includes(EDIT_ANCHOR))
    throw new Error(`${EDITED_SOURCE} no longer has ${EDIT_ANCHOR}: move the edit elsewhere.`);
  await writeFile(
    file,
    source.replace(EDIT_ANCHOR, `${EDIT_ANCHOR}\n<p>Aviso de temporada: ${word}.</p>`),
  );
}

/** The name of the Pagefind fragment of the page at `url` in a build's public folder. */
export async function pagefindFragmentOf(clientDir: string, url: string): Promise<string> {
  const dir = join(clientDir, 'pagefind', 'fragment');
  for (const name of await readdir(dir)) {
    const text = gunzipSync(await readFile(join(dir, name))).toString('utf8');
    if (text.includes(`"url":${JSON.stringify(url)}`)) return name;
  }
  throw new Error(`No Pagefind fragment of ${url} in ${dir}`);
}

/**
 * What is asked for while the site is republished: the edited page (compressed, and as the file
 * itself), its twin (`.md` and `Accept: text/markdown`), a search for `word` (answered 200 before the
 * edit too, with no result), read_page of the page, and the browser search's files: its script, its
 * entry (whose index hashes change with the edit) and the fragment of a page that the edit leaves alone.
 */
export function republishTargets(word: string, unchangedFragment: string): PollTarget[] {
  const slug = EDITED_PAGE.replaceAll('/', '');
  return [
    { name: 'page', path: EDITED_PAGE },
    { name: 'page, uncompressed', path: EDITED_PAGE, headers: { 'Accept-Encoding': 'identity' } },
    { name: 'twin .md', path: `/${slug}.md` },
    {
      name: 'twin, Accept: text/markdown',
      path: EDITED_PAGE,
      headers: { Accept: 'text/markdown' },
    },
    { name: 'search_pages', path: `/api/v1/search_pages?query=${encodeURIComponent(word)}` },
    { name: 'read_page', path: `/api/v1/read_page?url=${slug}` },
    { name: 'pagefind.js', path: '/pagefind/pagefind.js' },
    { name: 'pagefind-entry.json', path: '/pagefind/pagefind-entry.json' },
    { name: 'pagefind fragment', path: `/pagefind/fragment/${unchangedFragment}`, pagefind: true },
  ];
}

/** The targets whose answer shows the edit once the new build serves them. */
export const SHOWS_THE_EDIT = new Set([
  'page',
  'page, uncompressed',
  'twin .md',
  'twin, Accept: text/markdown',
  'search_pages',
  'read_page',
]);
