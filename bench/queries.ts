/** Varied Spanish queries, as agents and people type them: trades, household problems, with and without a city. */
import { createRandom } from './site-generator/barrio-text.ts';

const SUBJECTS = [
  'fontanero', 'fontanería urgente', 'fuga de agua', 'electricista', 'se va la luz', 'cerrajero 24 horas',
  'puerta bloqueada', 'pintar piso', 'pintor', 'caldera sin agua caliente', 'calefacción', 'aire acondicionado no enfría',
  'persiana atascada', 'cristal roto', 'humedades en la pared', 'desatasco fregadero', 'lavadora no centrifuga',
  'antena sin señal', 'reforma baño', 'albañil', 'precio fontanero', 'presupuesto electricista', 'urgencias',
  'carpintero', 'montar muebles', 'cambiar enchufe', 'termo eléctrico', 'grifo gotea', 'cisterna pierde agua',
  'técnico frigorífico', 'instalar lámpara', 'garantía', 'horario', 'cuánto cuesta', 'factura con iva',
];
const CITY_WORDS = ['madrid', 'barcelona', 'valencia', 'sevilla', 'bilbao', 'málaga', 'zaragoza', 'vigo', 'granada', 'murcia', 'tenerife', 'gijón'];
export const CITY_SLUGS = ['madrid', 'barcelona', 'valencia', 'sevilla', 'bilbao', 'malaga', 'zaragoza', 'vigo', 'granada', 'murcia'];

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
