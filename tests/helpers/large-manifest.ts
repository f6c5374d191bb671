/**
 * A manifest shaped like the benchmark's generated sites (bench/generate-site.ts) without building
 * one: the demo's top pages, its service and city pages, then one page per service × city ×
 * neighbourhood until there are `pageCount` pages, sorted by path as a build's manifest is.
 */
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  buildManifest,
  writeManifest,
} from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import type { BuiltPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import type { DocumentSource } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { agentApiOptions } from '../../src/data/agent-api.ts';
import { cities, services } from '../../src/data/company.ts';
import { buildTestPage } from './built-page.ts';

export const LARGE_SITE = 'https://www.reparohogar.example';

export function buildLargeManifest(pageCount: number): DocumentSource {
  const page = (path: string, title: string, text: string) =>
    buildTestPage(LARGE_SITE, path, {
      title: `${title} | Reparo Hogar`,
      language: 'es',
      markdown: `# ${title}\n\n${text}\n`,
    });
  const pages: BuiltPage[] = [
    page('/', 'Inicio', 'Reparaciones del hogar en toda España, con urgencias 24 horas.'),
    page('/contacto/', 'Contacto', 'Llámanos o escríbenos.'),
    page('/servicios/', 'Servicios', 'Todos los servicios a domicilio.'),
    page('/ciudades/', 'Ciudades', 'Las ciudades donde trabajamos.'),
    ...cities.map((city) =>
      page(
        `/ciudades/${city.slug}/`,
        city.name,
        `Servicios del hogar en ${city.name}, ${city.region}.`,
      ),
    ),
    ...services.map((service) =>
      page(`/servicios/${service.slug}/`, service.name, service.summary),
    ),
  ];
  for (let barrio = 1; pages.length < pageCount; barrio++) {
    for (const service of services) {
      for (const city of cities) {
        if (pages.length >= pageCount) break;
        pages.push(
          page(
            `/servicios/${service.slug}/${city.slug}/barrio-${barrio}/`,
            `${service.name} en el barrio ${barrio} de ${city.name}`,
            `En el barrio ${barrio} de ${city.name} atendemos avisos de ${service.name.toLowerCase()} casi todos los días.`,
          ),
        );
      }
    }
  }
  pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const options = resolveAgentApiOptions(parseAgentApiOptions(agentApiOptions), {
    url: LARGE_SITE,
    pageLanguages: [],
    sitemap: '/sitemap-index.xml',
  });
  return {
    site: LARGE_SITE,
    options,
    company: parseAgentApiOptions(agentApiOptions).company,
    pages,
  };
}

/** A runtime folder of `pageCount` such pages in `outDir`, as `astro build` writes it (manifest and server index, no HTML). */
export async function writeLargeBuild(outDir: string, pageCount: number): Promise<void> {
  const source = buildLargeManifest(pageCount);
  const pages = source.pages.map((page) => ({
    ...page,
    lang: page.language,
    textHash: page.path,
    documentTitle: page.title,
  }));
  const manifest = buildManifest({ ...source, pages });
  await writeServerIndex(outDir, await buildServerIndexOfManifest(manifest));
  await writeManifest(outDir, manifest);
}
