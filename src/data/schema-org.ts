/**
 * The schema.org graph of every page, from the company facts: the company as a
 * HomeAndConstructionBusiness, its services as Service nodes with offers from the price tables, the
 * cities, the guides as Articles, FAQ blocks as FAQPage and a BreadcrumbList. Each node has an `@id`
 * under the URL of the page that describes it (`/#organization`, `/servicios/fontaneria/#service`,
 * `/ciudades/madrid/#city`), and other pages link to it by that `@id`.
 */
import type {
  AdministrativeArea,
  Article,
  City as CityNode,
  Graph,
  HomeAndConstructionBusiness,
  OfferCatalog,
  OpeningHoursSpecification,
  Service as ServiceNode,
  Thing,
  WebPage,
  WebSite,
} from 'schema-dts';
import {
  buildBreadcrumbList,
  buildFaqPage,
  buildGraph,
  buildNodeId,
  buildPriceOffer,
  idReference,
  type FaqItem,
} from 'astro-agent-api/schema-org';
import {
  cities,
  cityUrl,
  company,
  emergencyHours,
  officeHours,
  pages,
  postalAddress,
  serviceUrl,
  services,
  tax,
  type City,
  type OpeningPeriod,
  type PriceItem,
  type Service,
} from './company.ts';

const LANGUAGE = 'es-ES';
const CURRENCY = 'EUR';

/** A step of the breadcrumb trail as the page shows it (PageHead): a label, and a link unless it is the page itself. */
export interface Crumb {
  label: string;
  href?: string;
}

/** The page kinds of schema.org that the site's pages are. */
export type PageType = 'WebPage' | 'AboutPage' | 'ContactPage' | 'CollectionPage' | 'ItemPage';

export interface PageGraphInput {
  site: URL;
  /** Path of the page, e.g. `/servicios/fontaneria/`. */
  path: string;
  /** The page's heading: the last step of the breadcrumb. */
  heading: string;
  title: string;
  description: string;
  crumbs: readonly Crumb[];
  type?: PageType;
  /** What the page is about, described in full; the first is the page's main entity. */
  entities?: readonly Thing[];
  /** When the page last changed (ISO 8601 date). */
  modified?: string;
}

const organizationId = (site: URL) => buildNodeId(site, 'organization');
const websiteId = (site: URL) => buildNodeId(site, 'website');
export const serviceId = (site: URL, path: string) => buildNodeId(new URL(path, site), 'service');
const cityId = (site: URL, city: Pick<City, 'slug'>) =>
  buildNodeId(new URL(cityUrl(city), site), 'city');
const catalogId = (site: URL) => buildNodeId(new URL(pages.servicios, site), 'catalog');

/** The graph of one page: the company (in full on its own pages, briefly elsewhere), the site, the page, its breadcrumb and its entities. */
export function buildPageGraph(input: PageGraphInput): Graph {
  const { site, path, heading, crumbs, entities = [] } = input;
  const url = new URL(path, site).href;
  const pageId = buildNodeId(url, 'webpage');
  const breadcrumbId = buildNodeId(url, 'breadcrumb');
  const describesOrganization = entities.some(
    (entity) => (entity as { '@id'?: string })['@id'] === organizationId(site),
  );
  const mainEntity = entities[0] as { '@id'?: string } | undefined;
  const page: WebPage = {
    '@type': input.type ?? 'WebPage',
    '@id': pageId,
    url,
    name: input.title,
    description: input.description,
    inLanguage: LANGUAGE,
    isPartOf: idReference(websiteId(site)),
    breadcrumb: idReference(breadcrumbId),
    ...(mainEntity?.['@id'] && { mainEntity: idReference(mainEntity['@id']) }),
    ...(input.modified && { dateModified: input.modified }),
  };
  const trail = [
    { name: 'Inicio', url: new URL('/', site).href },
    ...crumbs.flatMap((crumb) =>
      crumb.href ? [{ name: crumb.label, url: new URL(crumb.href, site).href }] : [],
    ),
    ...(path === '/' ? [] : [{ name: heading, url }]),
  ];
  return buildGraph([
    describesOrganization ? undefined : buildOrganizationSummary(site),
    buildWebSite(site),
    page,
    buildBreadcrumbList({ id: breadcrumbId, items: trail }),
    ...entities,
  ]);
}

/** The company in full: contact, address, hours, the cities it serves and its catalogue of services. */
export function buildOrganization(site: URL): HomeAndConstructionBusiness {
  return {
    ...buildOrganizationSummary(site),
    legalName: company.legalName,
    taxID: company.taxId,
    foundingDate: String(company.founded),
    address: {
      '@type': 'PostalAddress',
      streetAddress: postalAddress.street,
      postalCode: postalAddress.postalCode,
      addressLocality: postalAddress.locality,
      addressRegion: postalAddress.region,
      addressCountry: postalAddress.country,
    },
    openingHoursSpecification: buildOpeningHours(officeHours),
    contactPoint: [
      {
        '@type': 'ContactPoint',
        contactType: 'customer service',
        telephone: phoneNumber(),
        email: company.email,
        availableLanguage: LANGUAGE,
        hoursAvailable: buildOpeningHours(officeHours),
      },
      {
        '@type': 'ContactPoint',
        contactType: 'emergency',
        telephone: phoneNumber(),
        availableLanguage: LANGUAGE,
        hoursAvailable: buildOpeningHours(emergencyHours),
      },
    ],
    areaServed: cities.map((city) => buildCity(site, city)),
    hasOfferCatalog: buildServiceCatalog(site),
  };
}

/** The company as every page names it: enough to know who provides and publishes. */
function buildOrganizationSummary(site: URL): Exclude<HomeAndConstructionBusiness, string> {
  return {
    '@type': 'HomeAndConstructionBusiness',
    '@id': organizationId(site),
    name: company.brand,
    url: new URL('/', site).href,
    telephone: phoneNumber(),
    email: company.email,
  };
}

function buildWebSite(site: URL): WebSite {
  return {
    '@type': 'WebSite',
    '@id': websiteId(site),
    url: new URL('/', site).href,
    name: company.brand,
    inLanguage: LANGUAGE,
    publisher: idReference(organizationId(site)),
  };
}

/** The catalogue of services: one offer per service, each pointing to the Service its page describes. */
export function buildServiceCatalog(site: URL): OfferCatalog {
  return {
    '@type': 'OfferCatalog',
    '@id': catalogId(site),
    name: `Servicios de ${company.brand}`,
    url: new URL(pages.servicios, site).href,
    itemListElement: services.map((service) => ({
      '@type': 'Offer',
      name: service.name,
      itemOffered: idReference(serviceId(site, serviceUrl(service))),
    })),
  };
}

/** A city the company serves, inside its province and region. */
export function buildCity(site: URL, city: City): CityNode {
  const region: AdministrativeArea = { '@type': 'AdministrativeArea', name: city.region };
  return {
    '@type': 'City',
    '@id': cityId(site, city),
    name: city.name,
    url: new URL(cityUrl(city), site).href,
    containedInPlace:
      city.province === city.region
        ? region
        : { '@type': 'AdministrativeArea', name: city.province, containedInPlace: region },
  };
}

/** A service in every city: the trade, its price table (before tax) and its FAQ. */
export function buildService(site: URL, service: Service): ServiceNode {
  return {
    ...buildServiceBase(site, service, serviceUrl(service)),
    name: service.name,
    areaServed: cities.map((city) => idReference(cityId(site, city))),
    offers: buildOffers(service.prices, tax.note),
  };
}

/** A service in one city: its area, its local tax on the offers, and a link to the service in every city. */
export function buildCityService(
  site: URL,
  service: Service,
  city: City,
  path: string,
  name: string,
  taxNote: string,
): ServiceNode {
  return {
    ...buildServiceBase(site, service, path),
    name,
    areaServed: buildCity(site, city),
    isRelatedTo: idReference(serviceId(site, serviceUrl(service))),
    offers: buildOffers(service.prices, taxNote),
  };
}

function buildServiceBase(site: URL, service: Service, path: string) {
  return {
    '@type': 'Service',
    '@id': serviceId(site, path),
    url: new URL(path, site).href,
    serviceType: service.name,
    description: service.summary,
    provider: idReference(organizationId(site)),
    ...(service.emergency && { hoursAvailable: buildOpeningHours(emergencyHours) }),
  } as const;
}

/** The FAQ block of a page. */
export function buildFaq(site: URL, path: string, questions: readonly FaqItem[]) {
  const url = new URL(path, site);
  return buildFaqPage({
    id: buildNodeId(url, 'faq'),
    pageId: buildNodeId(url, 'webpage'),
    questions,
  });
}

/** A guide: an Article by the company, about the services it sends the reader to. */
export function buildGuideArticle(
  site: URL,
  guide: {
    path: string;
    title: string;
    description: string;
    updated: string;
    services: readonly Service[];
  },
): Article {
  const url = new URL(guide.path, site);
  return {
    '@type': 'Article',
    '@id': buildNodeId(url, 'article'),
    headline: guide.title,
    description: guide.description,
    dateModified: guide.updated,
    inLanguage: LANGUAGE,
    author: idReference(organizationId(site)),
    publisher: idReference(organizationId(site)),
    mainEntityOfPage: idReference(buildNodeId(url, 'webpage')),
    about: guide.services.map((service) => idReference(serviceId(site, serviceUrl(service)))),
  };
}

/** Offers of a price table: "desde 60 €" is a minimum price; prices are before tax, as the tables say. */
function buildOffers(prices: readonly PriceItem[], taxNote: string) {
  return prices.map((item) =>
    buildPriceOffer({
      name: item.concept,
      amount: item.from,
      currency: CURRENCY,
      taxIncluded: false,
      from: item.from > 0,
      ...(item.unit && { unit: item.unit.replace(/^\//, '') }),
      description: taxNote,
    }),
  );
}

function buildOpeningHours(periods: readonly OpeningPeriod[]): OpeningHoursSpecification[] {
  return periods.map(({ days, opens, closes }) => ({
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: [...days],
    opens,
    closes,
  }));
}

/** The published number in international form, from the `tel:` link. */
function phoneNumber(): string {
  return company.phoneHref.replace(/^tel:/, '');
}
