/**
 * The pages of Starlight's own documentation (17 languages, Japanese, Chinese, Korean and Persian
 * among them) as plain Markdown: each page's language, path, title and text, read from its sources
 * (`docs/src/content/docs/**` of withastro/starlight) — the vendored fixture when it is there, else a
 * git checkout of the repository. Imports, components' tags, code blocks and link targets are left
 * out, their text kept; nothing else is changed. What bench/search-scripts.ts indexes with both
 * engines, so that they read the same pages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export interface DocsPage {
  language: string;
  path: string;
  title: string;
  /** Markdown: headings (`## …`) and paragraphs. */
  text: string;
}

/** Where a Starlight site keeps its pages in its repository, and the folders of its locales (lowercase) with their languages. */
export interface DocsLayout {
  /** The pages' folder inside the git repository. */
  prefix: string;
  /** Locale folder → language tag (the folder itself when it is the tag). */
  locales: Record<string, string>;
}

/** Starlight's own documentation (withastro/starlight). */
export const STARLIGHT_DOCS: DocsLayout = {
  prefix: 'docs/src/content/docs/',
  locales: Object.fromEntries(
    [
      'de',
      'es',
      'ja',
      'fr',
      'it',
      'id',
      'zh-cn',
      'pt-br',
      'pt-pt',
      'ko',
      'tr',
      'ru',
      'hi',
      'da',
      'uk',
      'fa',
    ].map((folder) => [
      folder,
      { 'zh-cn': 'zh-CN', 'pt-br': 'pt-BR', 'pt-pt': 'pt-PT' }[folder] ?? folder,
    ]),
  ),
};

const ROOT_LANGUAGE = 'en';

/** The docs' pages from `contentDir` (their `src/content/docs`), or from the git repository `gitDir` (bare or not) when that folder is absent. */
export async function readDocsPages(
  contentDir: string,
  gitDir?: string,
  layout: DocsLayout = STARLIGHT_DOCS,
): Promise<DocsPage[]> {
  const files = existsSync(contentDir)
    ? await readFolder(contentDir)
    : readGit(gitDir!, layout.prefix);
  const pages: DocsPage[] = [];
  for (const [file, source] of files) {
    if (!/\.mdx?$/.test(file) || /(^|\/)404\.mdx?$/.test(file)) continue;
    const [first] = file.split('/');
    const language = layout.locales[first!] ?? ROOT_LANGUAGE;
    const route = file.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '');
    pages.push({ language, path: `/${route}${route === '' ? '' : '/'}`, ...readPage(source) });
  }
  return pages.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function readFolder(dir: string): Promise<[string, string][]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return [relative(dir, path).split(sep).join('/'), await readFile(path, 'utf8')] as [
          string,
          string,
        ];
      }),
  );
}

function readGit(gitDir: string, prefix: string): [string, string][] {
  const names = execFileSync(
    'git',
    ['-C', gitDir, 'ls-tree', '-r', '--name-only', 'HEAD', prefix],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n');
  return names.map((name) => [
    name.slice(prefix.length),
    execFileSync('git', ['-C', gitDir, 'show', `HEAD:${name}`], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  ]);
}

/** Title (front matter) and text of an `.md`/`.mdx` source. */
function readPage(source: string): { title: string; text: string } {
  const [, frontMatter = '', body = source] =
    /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source) ?? [];
  const title =
    /^title:\s*(.*)$/m
      .exec(frontMatter)?.[1]
      ?.trim()
      .replace(/^(['"])(.*)\1$/, '$2') ?? '';
  const text = body
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
    .replace(/^(?:import|export) .*$/gm, '')
    .replace(/^:::\w*(?:\[([^\]]*)\])?.*$/gm, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/^\[[^\]]+\]:.*$/gm, '')
    .replace(/[{}]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, text };
}
