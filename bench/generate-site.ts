/**
 * The benchmark's generated sites: the demo site's sources copied to `bench/.sites/p<N>/` plus one
 * generated page per service × city × neighbourhood (bench/site-generator/) until the site has N
 * content pages. The copy goes through the real `astro build` with the agent-api integration.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SITES_DIR = join(ROOT, 'bench', '.sites');
const GENERATOR_DIR = join(ROOT, 'bench', 'site-generator');

/** Creates (or refreshes) the site of `totalPages` content pages; `demoPages` is the demo's own count. */
export async function generateSite(totalPages: number, demoPages: number): Promise<string> {
  const root = join(SITES_DIR, `p${totalPages}`);
  await rm(join(root, 'src'), { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(join(ROOT, 'src'), join(root, 'src'), { recursive: true });
  await cp(join(ROOT, 'public'), join(root, 'public'), { recursive: true });
  await cp(join(ROOT, 'astro.config.mjs'), join(root, 'astro.config.mjs'));
  await writeFile(join(root, 'src', 'data', 'bench-size.json'), JSON.stringify({ extraPages: Math.max(0, totalPages - demoPages) }));
  await writeFile(join(root, 'src', 'data', 'barrio-text.ts'), await readFile(join(GENERATOR_DIR, 'barrio-text.ts')));
  const pageDir = join(root, 'src', 'pages', 'servicios', '[servicio]', '[ciudad]');
  await mkdir(pageDir, { recursive: true });
  await writeFile(join(pageDir, '[barrio].astro'), await readFile(join(GENERATOR_DIR, 'barrio-page.astro')));
  return root;
}
