/**
 * The demo's search vocabulary (`search` option of astro-agent-api): how people and agents name what
 * the site calls otherwise. The pages are titled by the trade ("Fontanería", "Electricidad",
 * "Reparación de electrodomésticos"); people ask for the tradesperson ("fontanero"), the appliance
 * ("lavadora", "frigo"), the problem ("gotera", "se va la luz"), in everyday or regional Spanish
 * ("calentador", "paleta", "gásfiter"), or in English, since agents often translate their user's words
 * ("plumber", "boiler repair", "price list"). Each key is searched with its values as alternatives;
 * keys and values are matched without case or accents, and keys may be phrases.
 */

/** The word of the site for each trade, as its pages title it. */
const TRADE = {
  albanileria: ['albañilería'],
  antenas: ['antenas'],
  calefaccion: ['calefacción'],
  carpinteria: ['carpintería'],
  cerrajeria: ['cerrajería'],
  climatizacion: ['climatización'],
  cristaleria: ['cristalería'],
  desatascos: ['desatascos'],
  electricidad: ['electricidad'],
  electrodomesticos: ['electrodomésticos'],
  fontaneria: ['fontanería'],
  impermeabilizacion: ['impermeabilización'],
  persianas: ['persianas'],
  pintura: ['pintura'],
  pladur: ['pladur'],
} as const;

/** Words that name a trade (tradesperson, its work, its everyday and regional names, English) → the trade. */
// biome-ignore format: a word list, read in rows
const TRADE_WORDS: Record<keyof typeof TRADE, string[]> = {
  albanileria: [
    'albañil', 'albañiles', 'paleta', 'paletas', 'obra', 'obras', 'reforma', 'reformas', 'reformar', 'alicatado', 'alicatar', 'azulejo',
    'azulejos', 'baldosa', 'baldosas', 'tabicar', 'bricklayer', 'mason', 'builder', 'builders', 'renovation', 'refurbishment', 'tiles', 'tiling',
  ],
  antenas: [
    'antenista', 'antenistas', 'antena', 'tdt', 'parabolica', 'tv', 'tele', 'television', 'canales', 'sintonizar', 'antenna', 'aerial',
    'satellite dish', 'tv signal', 'no signal',
  ],
  calefaccion: [
    'caldera', 'calderas', 'calderero', 'radiador', 'radiadores', 'calefactor', 'suelo radiante', 'heating', 'boiler', 'boilers', 'radiator',
    'radiators', 'central heating',
  ],
  carpinteria: [
    'carpintero', 'carpinteros', 'ebanista', 'madera', 'mueble', 'muebles', 'armario', 'armarios', 'tarima', 'parquet', 'carpenter', 'joiner',
    'woodwork', 'furniture', 'wardrobe', 'wooden door',
  ],
  cerrajeria: [
    'cerrajero', 'cerrajeros', 'cerradura', 'cerraduras', 'bombin', 'bombines', 'llaves', 'cerrojo', 'locksmith', 'locksmiths', 'lock', 'locks',
    'locked out', 'keys', 'lost keys',
  ],
  climatizacion: [
    'aire acondicionado', 'aire', 'split', 'splits', 'bomba de calor', 'frigorista', 'climatizador', 'aire frio', 'air conditioning',
    'air conditioner', 'aircon', 'ac', 'heat pump', 'cooling',
  ],
  cristaleria: [
    'cristalero', 'cristaleros', 'vidriero', 'cristal', 'cristales', 'vidrio', 'vidrios', 'mampara', 'mamparas', 'espejo', 'doble acristalamiento',
    'glazier', 'glass', 'window glass', 'glass pane', 'shower screen', 'mirror', 'double glazing',
  ],
  desatascos: [
    'desatascar', 'desatasco', 'atasco', 'atascos', 'atascado', 'atascada', 'atranco', 'embozado', 'tapado', 'tapada', 'wc', 'vater', 'water',
    'retrete', 'desague', 'desagues', 'bajante', 'unblock', 'unclog', 'blocked drain', 'blocked', 'clogged', 'clog', 'drain', 'drains',
    'toilet', 'sewer',
  ],
  electricidad: [
    'electricista', 'electricistas', 'electrico', 'electrica', 'luz', 'luces', 'enchufe', 'enchufes', 'plomos', 'diferencial', 'apagon',
    'cuadro electrico', 'cortocircuito', 'cable', 'cableado', 'electrician', 'electricians', 'electrical', 'electricity', 'power', 'power cut',
    'power outage', 'outage', 'socket', 'sockets', 'fuse', 'fuse box', 'wiring',
  ],
  electrodomesticos: [
    'electrodomestico', 'lavadora', 'lavadoras', 'lavavajillas', 'lavaplatos', 'frigorifico', 'frigorificos', 'frigo', 'nevera', 'neveras',
    'congelador', 'secadora', 'horno', 'vitro', 'vitroceramica', 'placa', 'induccion', 'appliance', 'appliances', 'washing machine', 'washer',
    'dishwasher', 'fridge', 'refrigerator', 'freezer', 'dryer', 'oven', 'hob', 'cooker',
  ],
  fontaneria: [
    'fontanero', 'fontaneros', 'fontanera', 'plomero', 'plomeros', 'gasfiter', 'lampista', 'grifo', 'grifos', 'canilla', 'tuberia', 'tuberias',
    'cisterna', 'termo', 'termos', 'calentador', 'calentadores', 'fuga', 'fugas', 'plumber', 'plumbers', 'plumbing', 'pipe', 'pipes', 'tap',
    'taps', 'faucet', 'leak', 'leaks', 'water leak', 'water heater',
  ],
  impermeabilizacion: [
    'impermeabilizar', 'gotera', 'goteras', 'humedad', 'humedades', 'filtracion', 'filtraciones', 'tejado', 'terraza', 'azotea', 'cubierta',
    'waterproofing', 'damp', 'dampness', 'roof', 'roof leak', 'leaking roof', 'mould', 'mold',
  ],
  persianas: [
    'persiana', 'persianista', 'cinta', 'lamas', 'toldo', 'toldos', 'estor', 'blind', 'blinds', 'shutter', 'shutters', 'roller shutter', 'awning',
  ],
  pintura: [
    'pintor', 'pintores', 'pintora', 'pintar', 'pintado', 'gotele', 'quitar gotele', 'alisar paredes', 'painter', 'painters', 'painting',
    'paint', 'decorator',
  ],
  pladur: [
    'pladurista', 'tabique', 'tabiques', 'falso techo', 'escayola', 'yeso laminado', 'drywall', 'plasterboard', 'partition wall',
    'false ceiling',
  ],
};

/** Words for the site's other pages and common questions → the words those pages use. */
// biome-ignore format: a word list, read in rows
const TOPIC_WORDS: Record<string, string[]> = {
  urgencias: ['urgente', 'urgentes', 'urgencia', 'emergencia', 'emergencias', '24h', 'guardia', 'madrugada', 'noche', 'festivo', 'festivos', 'hoy',
    'ahora mismo', 'venir hoy', 'hoy mismo', 'cuanto antes', 'emergency', 'emergencies', 'urgent', 'asap', 'today', 'come today', '24 7', 'night', 'weekend'],
  'precios orientativos': ['precio', 'tarifa', 'tarifas', 'coste', 'costes', 'cuesta', 'cuanto cuesta', 'cuanto vale', 'cuanto cobrais', 'price',
    'prices', 'price list', 'pricing', 'cost', 'costs', 'rates', 'fees', 'how much'],
  'presupuesto por escrito': ['presupuesto gratis', 'presupuestos gratis', 'presupuesto gratuito', 'sin compromiso', 'quote', 'free quote',
    'estimate', 'free estimate'],
  'desplazamiento y diagnostico': ['visita', 'callout', 'call out', 'call out fee'],
  garantia: ['garantias', 'guarantee', 'warranty', 'warranties'],
  factura: ['facturas', 'iva', 'igic', 'invoice', 'invoices', 'receipt', 'vat'],
  'como funciona': ['funcionais', 'proceso', 'pasos', 'how it works', 'how does it work', 'process'],
  contacto: ['contactar', 'llamar', 'telefono', 'whatsapp', 'correo', 'email', 'contact', 'phone', 'call', 'call you'],
  empresa: ['quienes sois', 'quienes somos', 'razon social', 'cif', 'nif', 'company', 'about', 'about us', 'who are you'],
  privacidad: ['cookies', 'datos personales', 'rgpd', 'gdpr', 'privacy', 'privacy policy'],
  desarrolladores: ['api', 'programadores', 'developers', 'developer', 'integracion', 'mcp', 'openapi'],
  ciudades: ['donde trabajais', 'zonas', 'cobertura', 'cities', 'where', 'coverage', 'areas'],
  guias: ['consejos', 'trucos', 'guide', 'guides', 'tips', 'how to', 'diy'],
  'saltan plomos diferencial': ['se va la luz', 'sin luz', 'no hay luz', 'apagon', 'power cut', 'no power', 'tripped'],
  roto: ['rota', 'rotos', 'rotas', 'broken', 'cracked', 'smashed'],
  'agua caliente': ['sin agua caliente', 'no hot water', 'hot water'],
  'no centrifuga': ['no escurre', 'wont spin', 'not spinning', 'doesnt spin'],
  'no enfria': ['no da frio', 'not cooling', 'no cold air', 'warm air'],
  'puerta cerrada llaves dentro': ['dejado las llaves dentro', 'llaves dentro', 'quedo fuera', 'me quedo fuera', 'quedado fuera', 'sin llaves',
    'locked out', 'keys inside'],
  'tiempos de respuesta': ['venir hoy', 'hoy mismo', 'cuando venis', 'cuanto tardais', 'tardais', 'llegar', 'how long', 'how soon', 'come today'],
  averia: ['estropeado', 'estropeada', 'estropeados', 'no funciona', 'no va', 'not working', 'broken down', 'faulty'],
  cubierta: ['techo', 'techos', 'ceiling'],
  reparacion: ['reparar', 'arreglar', 'arreglo', 'averia', 'averias', 'repair', 'repairs', 'fix', 'fixing', 'broken down'],
  instalacion: ['instalar', 'montar', 'montaje', 'poner', 'install', 'installation', 'fit', 'fitting'],
  ventana: ['ventanas', 'window', 'windows'],
  puerta: ['puertas', 'door', 'doors', 'front door'],
  pared: ['paredes', 'muro', 'wall', 'walls'],
  piso: ['vivienda', 'apartamento', 'casa', 'flat', 'apartment', 'house', 'home'],
  agua: ['water'],
  fregadero: ['sink', 'kitchen sink'],
  'baño': ['aseo', 'bathroom', 'toilet'],
  cocina: ['kitchen'],
  horario: ['horarios', 'abierto', 'abris', 'opening hours', 'hours', 'open'],
};

/** Query word or phrase → the site's words searched as its alternatives (one table, built from the two above). */
export function buildSynonyms(): Record<string, string[]> {
  const synonyms: Record<string, string[]> = {};
  const add = (key: string, values: readonly string[]) => {
    synonyms[key] = [...new Set([...(synonyms[key] ?? []), ...values])];
  };
  for (const [trade, words] of Object.entries(TRADE_WORDS))
    for (const word of words) add(word, TRADE[trade as keyof typeof TRADE]);
  for (const [target, words] of Object.entries(TOPIC_WORDS))
    for (const word of words) add(word, [target]);
  return synonyms;
}

/** The demo's `search` option. */
export const searchVocabulary = {
  synonyms: buildSynonyms(),
  /**
   * Words of requests and questions that say nothing about the page wanted; the language's own stop
   * words (Spanish) are dropped already.
   */
  // biome-ignore format: a word list, read in rows
  stopWords: [
    'necesito', 'necesitamos', 'busco', 'buscamos', 'quiero', 'queria', 'quisiera', 'podeis', 'puedes', 'haceis', 'teneis', 'hay', 'alguien',
    'urgentemente', 'por favor', 'favor', 'gracias', 'hola', 'vale', 'mi', 'mio', 'mia', 'cerca', 'zona',
    'i', 'need', 'want', 'looking', 'for', 'a', 'an', 'the', 'my', 'in', 'to', 'of', 'do', 'does', 'you', 'can', 'is', 'it', 'me', 'please', 'near',
  ],
  /** Words about the whole site rather than one page: they only count when a query has nothing else. */
  genericWords: [
    'servicio',
    'servicios',
    'reparaciones',
    'hogar',
    'domicilio',
    'empresa',
    'profesional',
    'profesionales',
    'tecnico',
    'tecnicos',
    'service',
    'services',
    'home',
    'repairs',
  ],
};
