/**
 * The benchmark's search workloads. `buildQueries`: 35 fixed Spanish subjects ± a city, as agents and
 * people type them — they repeat, so a cache answers most of them (the "repeated subjects" rows).
 * `buildNewQueries`: every query new, drawn from the site's own text.
 */
import { buildPageText } from '../packages/astro-agent-api/src/content/plain-text.ts';
import { createRandom } from './site-generator/barrio-text.ts';

// biome-ignore format: a word list, read in rows
const SUBJECTS = [
  'fontanero', 'fontanería urgente', 'fuga de agua', 'electricista', 'se va la luz', 'cerrajero 24 horas',
  'puerta bloqueada', 'pintar piso', 'pintor', 'caldera sin agua caliente', 'calefacción', 'aire acondicionado no enfría',
  'persiana atascada', 'cristal roto', 'humedades en la pared', 'desatasco fregadero', 'lavadora no centrifuga',
  'antena sin señal', 'reforma baño', 'albañil', 'precio fontanero', 'presupuesto electricista', 'urgencias',
  'carpintero', 'montar muebles', 'cambiar enchufe', 'termo eléctrico', 'grifo gotea', 'cisterna pierde agua',
  'técnico frigorífico', 'instalar lámpara', 'garantía', 'horario', 'cuánto cuesta', 'factura con iva',
];
const CITY_WORDS = [
  'madrid',
  'barcelona',
  'valencia',
  'sevilla',
  'bilbao',
  'málaga',
  'zaragoza',
  'vigo',
  'granada',
  'murcia',
  'tenerife',
  'gijón',
];
export const CITY_SLUGS = [
  'madrid',
  'barcelona',
  'valencia',
  'sevilla',
  'bilbao',
  'malaga',
  'zaragoza',
  'vigo',
  'granada',
  'murcia',
];

export interface BenchQuery {
  query: string;
  /** City slug filter, or undefined for every page. */
  city?: string;
}

/** `count` queries from a seeded generator: a third name a city in the text, a third use the city filter. */
export function buildQueries(count: number, seed = 7): BenchQuery[] {
  const random = createRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, () => {
    const subject = pick(SUBJECTS);
    const kind = random();
    if (kind < 1 / 3) return { query: `${subject} ${pick(CITY_WORDS)}` };
    if (kind < 2 / 3) return { query: subject, city: pick(CITY_SLUGS) };
    return { query: subject };
  });
}

/** Share of the new queries with a typo in one word, and with the facet filter. */
const TYPO_SHARE = 0.2;
const FILTER_SHARE = 0.3;

/**
 * `count` distinct queries of 1 to 4 consecutive words of a random page's text (so every one finds
 * something, and most words are the site's own), a fifth with a typo in their longest word (a letter
 * dropped, doubled, swapped or replaced), three tenths with the facet filter (the page's own value
 * when it has one). Seeded: every engine of a run answers the same queries.
 */
export function buildNewQueries(
  pages: readonly { markdown: string; facets: Record<string, string> }[],
  facetValues: readonly string[],
  count: number,
  seed = 5,
): BenchQuery[] {
  const random = createRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const seen = new Set<string>();
  const queries: BenchQuery[] = [];
  for (let attempt = 0; queries.length < count && attempt < count * 20; attempt++) {
    const page = pick(pages);
    const words = buildPageText(page.markdown.slice(0, 4000))
      .text.split(' ')
      .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
      .filter((word) => word.length > 0);
    if (words.length < 4) continue;
    const length = 1 + Math.floor(random() * 4);
    const start = Math.floor(random() * (words.length - length));
    const phrase = words.slice(start, start + length);
    if (random() < TYPO_SHARE) {
      const longest = phrase.reduce(
        (best, word, i) => (word.length > phrase[best]!.length ? i : best),
        0,
      );
      phrase[longest] = misspell(phrase[longest]!, random);
    }
    const query = phrase.join(' ').toLowerCase();
    if (query.length < 2 || seen.has(query)) continue;
    seen.add(query);
    const city = random() < FILTER_SHARE ? (page.facets.city ?? pick(facetValues)) : undefined;
    queries.push(city ? { query, city } : { query });
  }
  return queries;
}

function misspell(word: string, random: () => number): string {
  if (word.length < 4) return word;
  const at = 1 + Math.floor(random() * (word.length - 2));
  const kind = Math.floor(random() * 4);
  if (kind === 0) return word.slice(0, at) + word.slice(at + 1);
  if (kind === 1) return word.slice(0, at) + word[at] + word.slice(at);
  if (kind === 2) return word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1);
  return (
    word.slice(0, at) + String.fromCharCode(97 + Math.floor(random() * 26)) + word.slice(at + 1)
  );
}
