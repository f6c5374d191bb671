/**
 * Vocabulary the search engine adds on top of Pagefind's Spanish stemming. All keys are normalised
 * (lowercase, no accents), as `normaliseSearchText` leaves the query.
 *
 * Why it exists: people search with the name of the tradesperson ("fontanero", "electricista") or of
 * the appliance ("lavadora", "caldera") while the pages are titled by the trade ("Fontanería",
 * "Electricidad", "Reparación de electrodomésticos"); Pagefind's stemmer does not relate them.
 * Edit the tables here, not in the ranking code.
 */

/**
 * Query word → extra words searched as alternatives of that word (the best-scoring alternative
 * counts, the extra ones slightly discounted). Covers the 15 trades of the catalogue.
 */
export const TRADE_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  fontanero: ['fontaneria'],
  fontaneros: ['fontaneria'],
  electricista: ['electricidad', 'electrico'],
  electricistas: ['electricidad', 'electrico'],
  luz: ['electricidad'],
  cerrajero: ['cerrajeria'],
  cerrajeros: ['cerrajeria'],
  cerradura: ['cerrajeria'],
  carpintero: ['carpinteria'],
  carpinteros: ['carpinteria'],
  pintor: ['pintura'],
  pintores: ['pintura'],
  pintar: ['pintura'],
  albanil: ['albanileria'],
  albaniles: ['albanileria'],
  reforma: ['albanileria'],
  acondicionado: ['climatizacion'],
  aire: ['climatizacion'],
  split: ['climatizacion'],
  caldera: ['calefaccion'],
  calderas: ['calefaccion'],
  radiador: ['calefaccion'],
  radiadores: ['calefaccion'],
  atasco: ['desatascos'],
  atascado: ['desatascos'],
  atascada: ['desatascos'],
  desatascar: ['desatascos'],
  desatasco: ['desatascos'],
  persiana: ['persianas'],
  persianista: ['persianas'],
  cristalero: ['cristaleria'],
  cristal: ['cristaleria'],
  vidrio: ['cristaleria'],
  antenista: ['antenas'],
  antena: ['antenas'],
  tdt: ['antenas'],
  pladurista: ['pladur'],
  tabique: ['pladur'],
  gotera: ['impermeabilizacion'],
  goteras: ['impermeabilizacion'],
  humedad: ['impermeabilizacion'],
  humedades: ['impermeabilizacion'],
  impermeabilizar: ['impermeabilizacion'],
  electrodomestico: ['electrodomesticos'],
  lavadora: ['electrodomesticos'],
  lavavajillas: ['electrodomesticos'],
  frigorifico: ['electrodomesticos'],
  nevera: ['electrodomesticos'],
  secadora: ['electrodomesticos'],
  horno: ['electrodomesticos'],
  vitroceramica: ['electrodomesticos'],
  // The service is "urgencias"; people ask for something "urgente", which stems differently.
  urgente: ['urgencias'],
  urgentes: ['urgencias'],
  urgencia: ['urgencias'],
  emergencia: ['urgencias'],
  emergencias: ['urgencias'],
};

/**
 * Words dropped from the query before searching: Pagefind requires every word of a query to match,
 * and these are on nearly every page, so they only add noise. "no" is here too: "la lavadora no
 * centrifuga" should find the page that says so, which it does without the "no".
 */
// biome-ignore format: a word list, read in rows
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'al', 'algo', 'con', 'de', 'del', 'el', 'en', 'es', 'esta', 'este', 'hay', 'la', 'las', 'le', 'lo', 'los',
  'me', 'mi', 'mis', 'muy', 'no', 'o', 'para', 'pero', 'por', 'que', 'se', 'si', 'su', 'sus', 'te', 'tu', 'un',
  'una', 'uno', 'unos', 'unas', 'y', 'ya', 'como', 'donde', 'cuando', 'cual', 'mas', 'necesito', 'busco',
  'quiero', 'tengo', 'hace', 'falta', 'cerca', 'casa', 'mio', 'mia', 'he', 'ha', 'han', 'hemos', 'sin',
]);

/**
 * Words that describe the whole site rather than a page ("servicios en Córdoba"): dropped like
 * stopwords when the query has other words, so the city or trade decides.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'servicio',
  'servicios',
  'reparaciones',
  'hogar',
  'domicilio',
  'empresa',
  'profesional',
  'profesionales',
]);
