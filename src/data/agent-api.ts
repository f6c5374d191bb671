import type { AgentApiUserOptions } from 'astro-agent-api/contract';
import { cities, companyInfo } from './company.ts';
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
  search: searchVocabulary,
} satisfies AgentApiUserOptions;
