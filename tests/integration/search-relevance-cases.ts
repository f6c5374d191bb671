/**
 * What people and agents type to the demo's search_pages, and the pages that should answer, by kind.
 * `expect` lists acceptable paths; a `*` matches any characters (guide slugs are free to change
 * wording). `first` demands rank 1: a service named with a city must lead. The relevance test asserts
 * each case in the top 3 (or first); the benchmark prints the top-1 and top-3 hit rates per kind.
 */
export type RelevanceKind =
  | 'keywords'
  | 'city in text'
  | 'city filter'
  | 'typo or no accent'
  | 'English'
  | 'question'
  | 'everyday word';

export interface RelevanceCase {
  kind: RelevanceKind;
  query: string;
  city?: string;
  expect: string[];
  first?: boolean;
}

const SERVICE = (slug: string) => `/servicios/${slug}/*`;

export const RELEVANCE_CASES: RelevanceCase[] = [
  // The first 24 cases of the suite, kept as they were.
  {
    kind: 'city in text',
    query: 'fontanero en Madrid',
    expect: ['/servicios/fontaneria/madrid/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'electricista malaga',
    expect: ['/servicios/electricidad/malaga/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'cerrajero A Coruña',
    expect: ['/servicios/cerrajeria/a-coruna/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'cerrajero urgente Bilbao',
    expect: ['/servicios/cerrajeria/bilbao/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'pladur en Valencia',
    expect: ['/servicios/pladur/valencia/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'reparación de electrodomésticos en Gijón',
    expect: ['/servicios/reparacion-electrodomesticos/gijon/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'aire acondicionado no enfría Sevilla',
    expect: ['/servicios/climatizacion/sevilla/', '/guias/*'],
  },
  {
    kind: 'city filter',
    query: 'fontanero',
    city: 'sevilla',
    expect: ['/servicios/fontaneria/sevilla/'],
    first: true,
  },
  { kind: 'keywords', query: 'fuga de agua', expect: ['/guias/*fuga*', '/servicios/fontaneria/'] },
  {
    kind: 'keywords',
    query: 'lavadora no centrifuga',
    expect: ['/guias/*lavadora*', '/servicios/reparacion-electrodomesticos/'],
  },
  {
    kind: 'keywords',
    query: 'caldera sin agua caliente',
    expect: ['/guias/*caldera*', '/guias/*agua-caliente*', '/servicios/calefaccion/'],
  },
  {
    kind: 'keywords',
    query: 'fregadero atascado',
    expect: ['/guias/*atasc*', '/guias/*fregadero*', '/servicios/desatascos/'],
  },
  {
    kind: 'keywords',
    query: 'me he dejado las llaves dentro',
    expect: ['/guias/*llave*', '/guias/*puerta*', '/servicios/cerrajeria/'],
  },
  {
    kind: 'keywords',
    query: 'salta el diferencial y no hay luz',
    expect: [
      '/guias/*luz*',
      '/guias/*diferencial*',
      '/guias/*apagon*',
      '/guias/*corte*',
      '/servicios/electricidad/',
    ],
  },
  {
    kind: 'keywords',
    query: 'persiana atascada',
    expect: ['/guias/*persiana*', '/servicios/persianas/'],
  },
  {
    kind: 'keywords',
    query: 'cristal roto de la ventana',
    expect: ['/guias/*cristal*', '/guias/*ventana*', '/servicios/cristaleria/'],
  },
  {
    kind: 'keywords',
    query: 'humedad en la pared',
    expect: ['/guias/*humedad*', '/servicios/impermeabilizacion/'],
  },
  { kind: 'keywords', query: 'pintar un piso', expect: ['/guias/*pint*', '/servicios/pintura/'] },
  {
    kind: 'keywords',
    query: 'la tele no tiene señal de antena',
    expect: ['/guias/*antena*', '/guias/*senal*', '/servicios/antenas/'],
  },
  { kind: 'keywords', query: 'precios orientativos', expect: ['/precios/'] },
  { kind: 'keywords', query: 'urgencias 24 horas', expect: ['/urgencias/'] },
  { kind: 'keywords', query: 'servicios en Córdoba', expect: ['/ciudades/cordoba/'] },
  { kind: 'keywords', query: 'quién factura y da la garantía', expect: ['/como-funciona/'] },
  { kind: 'keywords', query: 'API para desarrolladores', expect: ['/desarrolladores/'] },

  // Typos and words typed without accents.
  { kind: 'typo or no accent', query: 'fontaero', expect: [SERVICE('fontaneria')] },
  {
    kind: 'typo or no accent',
    query: 'cerrajro 24h',
    expect: [SERVICE('cerrajeria'), '/urgencias/'],
  },
  { kind: 'typo or no accent', query: 'electricsta', expect: [SERVICE('electricidad')] },
  {
    kind: 'typo or no accent',
    query: 'fontanria madrid',
    expect: ['/servicios/fontaneria/madrid/'],
    first: true,
  },
  { kind: 'typo or no accent', query: 'calefacion', expect: [SERVICE('calefaccion')] },
  { kind: 'typo or no accent', query: 'climatisacion', expect: [SERVICE('climatizacion')] },
  {
    kind: 'typo or no accent',
    query: 'persiana atascda',
    expect: ['/guias/persiana-atascada/', SERVICE('persianas')],
  },
  {
    kind: 'typo or no accent',
    query: 'lavadroa no centrifuga',
    expect: ['/guias/lavadora-no-centrifuga/'],
  },
  { kind: 'typo or no accent', query: 'desatascso', expect: [SERVICE('desatascos')] },
  {
    kind: 'typo or no accent',
    query: 'impermeabilizacion',
    expect: [SERVICE('impermeabilizacion')],
  },
  {
    kind: 'typo or no accent',
    query: 'electrodomesticos',
    expect: [SERVICE('reparacion-electrodomesticos')],
  },
  {
    kind: 'typo or no accent',
    query: 'cristaleria malaga',
    expect: ['/servicios/cristaleria/malaga/'],
    first: true,
  },
  {
    kind: 'typo or no accent',
    query: 'albanil en cordoba',
    expect: ['/servicios/albanileria/cordoba/'],
    first: true,
  },
  { kind: 'typo or no accent', query: 'carpinteroo', expect: [SERVICE('carpinteria')] },
  {
    kind: 'typo or no accent',
    query: 'antenista en gijon',
    expect: ['/servicios/antenas/gijon/'],
    first: true,
  },
  {
    kind: 'typo or no accent',
    query: 'pintor barcelna',
    expect: ['/servicios/pintura/barcelona/'],
  },
  {
    kind: 'typo or no accent',
    query: 'caldera sin agua calinete',
    expect: ['/guias/caldera-sin-agua-caliente/'],
  },

  // English, as agents translate their user's words.
  {
    kind: 'English',
    query: 'plumber barcelona',
    expect: ['/servicios/fontaneria/barcelona/'],
    first: true,
  },
  {
    kind: 'English',
    query: 'broken window glass',
    expect: ['/guias/cristal-roto-en-ventana/', SERVICE('cristaleria')],
  },
  {
    kind: 'English',
    query: 'boiler repair',
    expect: [SERVICE('calefaccion'), '/guias/caldera-sin-agua-caliente/'],
  },
  { kind: 'English', query: 'price list', expect: ['/precios/'] },
  {
    kind: 'English',
    query: 'locksmith madrid',
    expect: ['/servicios/cerrajeria/madrid/'],
    first: true,
  },
  {
    kind: 'English',
    query: 'electrician valencia',
    expect: ['/servicios/electricidad/valencia/'],
    first: true,
  },
  {
    kind: 'English',
    query: 'water leak',
    expect: ['/guias/fuga-de-agua-en-casa/', SERVICE('fontaneria')],
  },
  {
    kind: 'English',
    query: 'washing machine not spinning',
    expect: ['/guias/lavadora-no-centrifuga/'],
  },
  {
    kind: 'English',
    query: 'blocked kitchen sink',
    expect: ['/guias/fregadero-atascado/', SERVICE('desatascos')],
  },
  {
    kind: 'English',
    query: 'air conditioning not cooling',
    expect: ['/guias/aire-acondicionado-no-enfria/', SERVICE('climatizacion')],
  },
  {
    kind: 'English',
    query: 'damp on the wall',
    expect: ['/guias/humedades-en-la-pared/', SERVICE('impermeabilizacion')],
  },
  {
    kind: 'English',
    query: 'locked out keys inside',
    expect: ['/guias/puerta-cerrada-con-llaves-dentro/', SERVICE('cerrajeria')],
  },
  { kind: 'English', query: 'emergency plumber', expect: [SERVICE('fontaneria'), '/urgencias/'] },
  {
    kind: 'English',
    query: 'how much does painting a flat cost',
    expect: ['/guias/pintar-un-piso/', SERVICE('pintura'), '/precios/'],
  },
  { kind: 'English', query: 'free quote', expect: ['/precios/', '/como-funciona/', '/urgencias/'] },
  { kind: 'English', query: 'fridge repair', expect: [SERVICE('reparacion-electrodomesticos')] },
  {
    kind: 'English',
    query: 'tv antenna no signal',
    expect: ['/guias/antena-de-television-sin-senal/', SERVICE('antenas')],
  },
  {
    kind: 'English',
    query: 'roller shutter stuck',
    expect: ['/guias/persiana-atascada/', SERVICE('persianas')],
  },
  { kind: 'English', query: 'privacy policy', expect: ['/privacidad/'] },
  { kind: 'English', query: 'drywall partition', expect: [SERVICE('pladur')] },

  // Whole questions.
  {
    kind: 'question',
    query: '¿hacéis presupuestos gratis?',
    expect: ['/precios/', '/urgencias/', '/como-funciona/'],
  },
  {
    kind: 'question',
    query: '¿el técnico puede venir hoy a Bilbao?',
    expect: ['/ciudades/bilbao/', '/urgencias/'],
  },
  {
    kind: 'question',
    query: '¿cuánto cuesta cambiar un grifo?',
    expect: ['/precios/', SERVICE('fontaneria')],
  },
  {
    kind: 'question',
    query: '¿qué hago si se va la luz?',
    expect: ['/guias/saltan-los-plomos/', SERVICE('electricidad')],
  },
  { kind: 'question', query: '¿trabajáis en Zaragoza?', expect: ['/ciudades/zaragoza/'] },
  { kind: 'question', query: '¿cómo se paga?', expect: ['/como-funciona/'] },
  {
    kind: 'question',
    query: '¿cuánto tarda un fontanero en Madrid?',
    expect: ['/servicios/fontaneria/madrid/'],
  },
  { kind: 'question', query: '¿atendéis urgencias por la noche?', expect: ['/urgencias/'] },
  {
    kind: 'question',
    query: '¿cómo desatasco el fregadero?',
    expect: ['/guias/fregadero-atascado/'],
  },
  {
    kind: 'question',
    query: '¿qué hago si me quedo fuera de casa sin llaves?',
    expect: ['/guias/puerta-cerrada-con-llaves-dentro/'],
  },
  {
    kind: 'question',
    query: '¿por qué salta el diferencial?',
    expect: ['/guias/saltan-los-plomos/'],
  },
  { kind: 'question', query: '¿tenéis una API?', expect: ['/desarrolladores/'] },
  {
    kind: 'question',
    query: 'can you send a plumber to Sevilla today?',
    expect: ['/servicios/fontaneria/sevilla/'],
  },

  // Everyday and regional words.
  {
    kind: 'everyday word',
    query: 'calentador',
    expect: [SERVICE('fontaneria'), SERVICE('calefaccion')],
  },
  { kind: 'everyday word', query: 'frigo', expect: [SERVICE('reparacion-electrodomesticos')] },
  {
    kind: 'everyday word',
    query: 'tv',
    expect: [SERVICE('antenas'), '/guias/antena-de-television-sin-senal/'],
  },
  { kind: 'everyday word', query: 'gotelé', expect: [SERVICE('pintura')] },
  { kind: 'everyday word', query: 'fontanero', expect: ['/servicios/fontaneria/'] },
  { kind: 'everyday word', query: 'fontanería', expect: ['/servicios/fontaneria/'] },
  {
    kind: 'everyday word',
    query: 'nevera estropeada',
    expect: [SERVICE('reparacion-electrodomesticos')],
  },
  {
    kind: 'everyday word',
    query: 'quitar gotelé en Sevilla',
    expect: ['/servicios/pintura/sevilla/'],
    first: true,
  },
  { kind: 'everyday word', query: 'el váter está atascado', expect: [SERVICE('desatascos')] },
  {
    kind: 'everyday word',
    query: 'paleta en Valencia',
    expect: ['/servicios/albanileria/valencia/'],
    first: true,
  },
  { kind: 'everyday word', query: 'termo eléctrico', expect: [SERVICE('fontaneria')] },
  { kind: 'everyday word', query: 'bombín de la puerta', expect: [SERVICE('cerrajeria')] },
  {
    kind: 'everyday word',
    query: 'tele sin canales',
    expect: ['/guias/antena-de-television-sin-senal/', SERVICE('antenas')],
  },
  { kind: 'everyday word', query: 'goteras en el techo', expect: [SERVICE('impermeabilizacion')] },
  {
    kind: 'everyday word',
    query: 'el split gotea',
    expect: [SERVICE('climatizacion'), '/guias/aire-acondicionado-no-enfria/'],
  },

  // A city named in the text, no filter given.
  {
    kind: 'city in text',
    query: 'antenas Oviedo',
    expect: ['/servicios/antenas/oviedo/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'desatascos en Palma',
    expect: ['/servicios/desatascos/mallorca/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'calefacción La Coruña',
    expect: ['/servicios/calefaccion/a-coruna/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'Las Palmas de Gran Canaria',
    expect: ['/ciudades/las-palmas/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'reparaciones en Elche',
    expect: ['/ciudades/elche/'],
    first: true,
  },
  {
    kind: 'city in text',
    query: 'cristalero Alacant',
    expect: ['/servicios/cristaleria/alicante/'],
    first: true,
  },

  // The city filter.
  {
    kind: 'city filter',
    query: 'electricista',
    city: 'vigo',
    expect: ['/servicios/electricidad/vigo/'],
    first: true,
  },
  {
    kind: 'city filter',
    query: 'cerrajero',
    city: 'madrid',
    expect: ['/servicios/cerrajeria/madrid/'],
    first: true,
  },
  {
    kind: 'city filter',
    query: 'plumber',
    city: 'valencia',
    expect: ['/servicios/fontaneria/valencia/'],
    first: true,
  },
  {
    kind: 'city filter',
    query: 'gotelé',
    city: 'granada',
    expect: ['/servicios/pintura/granada/'],
    first: true,
  },
  { kind: 'city filter', query: 'servicios', city: 'murcia', expect: ['/ciudades/murcia/'] },
];

/** Whether a result path satisfies an `expect` pattern. */
export function matchesExpected(path: string, pattern: string): boolean {
  if (!pattern.includes('*')) return path === pattern;
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(path);
}

/** Whether the top results (paths, best first) answer the case: rank 1 for `first` cases, else the top 3. */
export function isHit(
  relevance: RelevanceCase,
  paths: readonly string[],
  depth = relevance.first ? 1 : 3,
): boolean {
  return paths
    .slice(0, depth)
    .some((path) => relevance.expect.some((pattern) => matchesExpected(path, pattern)));
}
