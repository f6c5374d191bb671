/**
 * The benchmark's generated sites: the demo site's sources copied to `bench/.sites/p<N>/` plus one
 * generated page per service × city × neighbourhood (bench/site-generator/) until the site has N
 * content pages. The copy goes through the real `astro build` with the agent-api integration, or without it
 * when WITHOUT_INTEGRATION_ENV is set (Astro's render alone, the baseline of the integration's added time).
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SITES_DIR = join(ROOT, 'bench', '.sites');
const GENERATOR_DIR = join(ROOT, 'bench', 'site-generator');
/** Content pages of the demo site (`src/`): the generated sites add pages to these. */
export const DEMO_PAGES = 374;
/** Set (to any value) in the environment of `astro build`, it builds a generated site without the agent-api integration. */
export const WITHOUT_INTEGRATION_ENV = 'BENCH_WITHOUT_AGENT_API';
/** Set to a folder, it is Astro's `cacheDir` for the build (each variant of a measured pair keeps its own caches). */
export const CACHE_DIR_ENV = 'BENCH_CACHE_DIR';

/**
 * The lines of a wrapped configuration (writeWrappedConfig) that the harness steers through the
 * environment: without the agent-api integration (Astro's render alone), and with a cache folder of its own.
 */
export const BENCH_CONFIG_LINES = [
  "// The site's configuration; without the agent-api integration when the harness asks for Astro's render alone, and with the harness's cache folder.",
  `const withoutAgentApi = process.env.${WITHOUT_INTEGRATION_ENV} ? { integrations: config.integrations.filter((integration) => integration.name !== 'astro-agent-api') } : {};`,
  `export default { ...config, ...withoutAgentApi, ...(process.env.${CACHE_DIR_ENV} && { cacheDir: process.env.${CACHE_DIR_ENV} }) };`,
];

/** Creates (or refreshes) the site of `totalPages` content pages; `demoPages` is the demo's own count. */
export async function generateSite(totalPages: number, demoPages: number): Promise<string> {
  const root = join(SITES_DIR, `p${totalPages}`);
  await rm(join(root, 'src'), { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(join(ROOT, 'src'), join(root, 'src'), { recursive: true });
  await cp(join(ROOT, 'public'), join(root, 'public'), { recursive: true });
  await writeWrappedConfig(root, join(ROOT, 'astro.config.mjs'), BENCH_CONFIG_LINES);
  await writeFile(
    join(root, 'src', 'data', 'bench-size.json'),
    JSON.stringify({ extraPages: Math.max(0, totalPages - demoPages) }),
  );
  await writeFile(
    join(root, 'src', 'data', 'barrio-text.ts'),
    await readFile(join(GENERATOR_DIR, 'barrio-text.ts')),
  );
  const pageDir = join(root, 'src', 'pages', 'servicios', '[servicio]', '[ciudad]');
  await mkdir(pageDir, { recursive: true });
  await writeFile(
    join(pageDir, '[barrio].astro'),
    await readFile(join(GENERATOR_DIR, 'barrio-page.astro')),
  );
  return root;
}

/**
 * Copies the configuration `demoConfig` into `root` as `astro.demo-config.mjs` and writes an
 * `astro.config.mjs` that imports it as `config` and goes on with `lines` (after `imports`).
 */
export async function writeWrappedConfig(
  root: string,
  demoConfig: string,
  lines: string[],
  imports: string[] = [],
): Promise<void> {
  await cp(demoConfig, join(root, 'astro.demo-config.mjs'));
  await writeFile(
    join(root, 'astro.config.mjs'),
    [...imports, "import config from './astro.demo-config.mjs';", '', ...lines, ''].join('\n'),
  );
}
