import type { AgentApiUserOptions } from 'astro-agent-api/contract';
import { cities, company, companyInfo, pages, serviceModel, services } from './company.ts';
import { searchVocabulary } from './search-vocabulary.ts';

/** Other ways people name a city in a search, besides its name and slug. */
const cityAliases: Record<string, string[]> = {
  'a-coruna': ['Coruña', 'La Coruña'],
  'las-palmas': ['Las Palmas', 'Gran Canaria'],
  mallorca: ['Palma de Mallorca', 'Palma'],
  tenerife: ['Santa Cruz de Tenerife'],
  alicante: ['Alacant'],
  elche: ['Elx'],
  pamplona: ['Iruña'],
};

/** The demo's options of the astro-agent-api integration: astro.config.mjs passes them, the developer page shows them. */
export const agentApiOptions = {
  language: 'es',
  company: companyInfo,
  facets: {
    city: {
      values: Object.fromEntries(cities.map((city) => [city.slug, city.name])),
      all: 'todas',
      aliases: cityAliases,
      description: 'Only pages of this city (slug); `todas` (default) searches every page.',
    },
  },
  documents: {
    summary:
      `${company.brand} repara y mantiene hogares: ${services.length} servicios a domicilio en ${cities.length} ciudades de España, ` +
      'con presupuesto por escrito, factura y garantía, y urgencias 24 horas.',
    notes: [
      serviceModel.booking,
      `${company.brand} responde ante el cliente de cada trabajo, también cuando lo hace un profesional colaborador de su red.`,
      `Para contratar un servicio, el cliente contacta directamente con ${company.brand}, por teléfono o por correo electrónico.`,
    ],
    exampleSearch: { query: 'fuga de agua', facets: { city: 'madrid' } },
    promptName: 'answer_customer_question',
    promptRules: ['Give no price, date or availability that the pages do not give.'],
    versioningPolicy: pages.versionado,
    developerPage: pages.desarrolladores,
  },
  // The contract's Spanish policy names, in every RateLimit header the demo sends.
  policies: { anonymous: { name: 'anonimo' }, identified: { name: 'identificado' } },
  // Answers grounded on the pages are welcome, quoting them and linking back (Content Signals' use=reference);
  // crawlers that only gather training data are kept out.
  robots: {
    usage: { search: true, aiInput: true, aiTrain: false, use: 'reference' },
    agents: { GPTBot: { crawl: false }, CCBot: { crawl: false } },
  },
  search: searchVocabulary,
} satisfies AgentApiUserOptions;
