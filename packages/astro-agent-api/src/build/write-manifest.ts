import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, RUNTIME_DIR, type Manifest, type ManifestPage } from '../content/manifest.ts';
import type { CompanyInfo } from '../operations/schemas.ts';
import type { AgentApiOptions } from '../options.ts';

/** The manifest of a build: pages sorted by path, company URLs absolute, a buildId that changes with the content. */
export function buildManifest(input: {
  site: string;
  options: AgentApiOptions;
  pages: readonly ManifestPage[];
  generatedAt?: Date;
}): Manifest {
  const { company, ...options } = input.options;
  const absoluteCompany = buildAbsoluteCompany(company, input.site);
  const pages = [...input.pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // The options are hashed too: truncateAt or the API path change what the API answers for the same pages.
  const buildId = createHash('sha256')
    .update(JSON.stringify({ pages, company: absoluteCompany, options }))
    .digest('base64url')
    .slice(0, 12);
  return {
    version: 1,
    buildId,
    site: input.site,
    generatedAt: (input.generatedAt ?? new Date()).toISOString(),
    options,
    company: absoluteCompany,
    pages,
  };
}

/** Company facts with every URL field resolved against `site` (the options may give site paths). */
export function buildAbsoluteCompany(company: CompanyInfo, site: string): CompanyInfo {
  const absolute = (url: string) => new URL(url, site).href;
  return {
    ...company,
    website: absolute(company.website),
    ...(company.services && { services: company.services.map((service) => ({ ...service, url: absolute(service.url) })) }),
    ...(company.cities && { cities: company.cities.map((city) => ({ ...city, url: absolute(city.url) })) }),
    ...(company.pages && {
      pages: Object.fromEntries(Object.entries(company.pages).map(([name, url]) => [name, absolute(url)])),
    }),
  };
}

/**
 * Writes `<outDir>/agent-api/manifest.json` through a temporary file and a rename, so a server that
 * reloads on a new manifest never reads half of one. Returns the file path.
 */
export async function writeManifest(outDir: string, manifest: Manifest): Promise<string> {
  const dir = join(outDir, RUNTIME_DIR);
  const file = join(dir, MANIFEST_FILE);
  const temporary = join(dir, `.${MANIFEST_FILE}.${process.pid}.tmp`);
  await mkdir(dir, { recursive: true });
  await writeFile(temporary, JSON.stringify(manifest));
  await rename(temporary, file);
  return file;
}
