/**
 * The company facts: one source for the pages of the site and for `get_company_info`.
 * Everything here is fictional (brand, legal data, address, phone). Loaded by Astro and by Node's
 * type stripping (astro.config.mjs, tests), so only erasable TypeScript and `.ts` import extensions.
 */
import type { CompanyInfo } from 'astro-agent-api/contract';

export interface PriceItem {
  concept: string;
  /** Lowest usual price in euros, before tax. */
  from: number;
  /** Suffix after the euro sign, e.g. '/m²' or '/hora'; empty for a whole job. */
  unit: string;
}

export interface Service {
  slug: string;
  name: string;
  /** The people who do it, plural, lower case: "fontaneros". */
  pros: string;
  /** One line for lists and meta descriptions. */
  summary: string;
  /** Attended 24 hours a day as an emergency. */
  emergency: boolean;
  prices: PriceItem[];
}

export type TaxName = 'IVA' | 'IGIC';

export interface City {
  slug: string;
  name: string;
  province: string;
  region: string;
  tax: TaxName;
}

/** Registered office, in the parts schema.org's PostalAddress names. */
export const postalAddress = {
  street: 'Calle de la Reparación 12, 2.º B',
  postalCode: '28015',
  locality: 'Madrid',
  region: 'Comunidad de Madrid',
  country: 'ES',
} as const;

/** A weekly opening period: days in schema.org's English names, times as HH:MM. */
export interface OpeningPeriod {
  days: readonly DayName[];
  opens: string;
  closes: string;
}
export type DayName =
  | 'Monday'
  | 'Tuesday'
  | 'Wednesday'
  | 'Thursday'
  | 'Friday'
  | 'Saturday'
  | 'Sunday';
const DAY_NAMES: readonly DayName[] = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];
const DAYS_ES: Record<DayName, [singular: string, plural: string]> = {
  Monday: ['lunes', 'lunes'],
  Tuesday: ['martes', 'martes'],
  Wednesday: ['miércoles', 'miércoles'],
  Thursday: ['jueves', 'jueves'],
  Friday: ['viernes', 'viernes'],
  Saturday: ['sábado', 'sábados'],
  Sunday: ['domingo', 'domingos'],
};

/** Customer service by phone and e-mail (emergencies are answered at any hour). */
export const officeHours: readonly OpeningPeriod[] = [
  { days: DAY_NAMES.slice(0, 5), opens: '08:00', closes: '20:00' },
  { days: ['Saturday'], opens: '09:00', closes: '14:00' },
];
/** Emergencies by phone: every day, all day. */
export const emergencyHours: readonly OpeningPeriod[] = [
  { days: DAY_NAMES, opens: '00:00', closes: '23:59' },
];

/** "De lunes a viernes de 8:00 a 20:00 y sábados de 9:00 a 14:00". */
export function formatOpeningHours(periods: readonly OpeningPeriod[]): string {
  const time = (value: string) => value.replace(/^0/, '');
  const text = periods
    .map(({ days, opens, closes }) => {
      const when =
        days.length === 1
          ? DAYS_ES[days[0]!][1]
          : `de ${DAYS_ES[days[0]!][0]} a ${DAYS_ES[days.at(-1)!][0]}`;
      return `${when} de ${time(opens)} a ${time(closes)}`;
    })
    .join(' y ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const company = {
  brand: 'Reparo Hogar',
  legalName: 'Reparo Hogar Servicios S.L.',
  taxId: 'B88123450',
  domain: 'reparohogar.example',
  address: `${postalAddress.street}, ${postalAddress.postalCode} ${postalAddress.locality}`,
  registry: 'Registro Mercantil de Madrid, tomo 40.112, folio 87, hoja M-712345',
  founded: 2016,
  /** Published number, for customer service and for 24-hour emergencies. */
  phone: '900 000 000',
  phoneHref: 'tel:+34900000000',
  /** No WhatsApp channel: empty on purpose. */
  whatsapp: '',
  email: 'hola@reparohogar.example',
  privacyEmail: 'privacidad@reparohogar.example',
  hours: {
    office: formatOpeningHours(officeHours),
    emergencies: 'Urgencias 24 horas, todos los días del año, por teléfono',
  },
  /** Time to answer an e-mail with a quote, on working days. */
  emailReply: 'en menos de 24 horas laborables',
} as const;

export const tax = {
  peninsula: { name: 'IVA', rate: 21, where: 'península y Baleares' },
  canarias: { name: 'IGIC', rate: 7, where: 'Canarias (Tenerife y Las Palmas de Gran Canaria)' },
  note:
    'Los precios se muestran sin impuestos. En la península y Baleares se añade el IVA del 21\u00a0%; ' +
    'en Canarias (Tenerife y Las Palmas de Gran Canaria) no se aplica IVA sino el IGIC del 7\u00a0%.',
} as const;

/** Rates common to every trade. */
export const generalPrices: PriceItem[] = [
  { concept: 'Desplazamiento y diagnóstico (visita programada)', from: 35, unit: '' },
  {
    concept: 'Mano de obra, por hora (fracciones de 30 minutos después de la primera)',
    from: 38,
    unit: '/hora',
  },
  { concept: 'Salida de urgencia de 8:00 a 20:00, de lunes a sábado', from: 55, unit: '' },
  { concept: 'Salida de urgencia de 20:00 a 8:00, domingos y festivos', from: 85, unit: '' },
  { concept: 'Presupuesto por escrito antes de empezar', from: 0, unit: '' },
];

export const pricesNote =
  'Precios orientativos, sin impuestos, para trabajos habituales en vivienda. El precio final es el del ' +
  'presupuesto por escrito que se acepta antes de empezar; los materiales y piezas se presupuestan aparte. ' +
  'Si no se acepta el presupuesto solo se paga el desplazamiento y diagnóstico.';

export const serviceModel = {
  description:
    'Reparo Hogar recibe el aviso, presupuesta, factura y garantiza cada trabajo. La reparación la hace un ' +
    'técnico de la plantilla o un profesional colaborador de nuestra red en cada ciudad, pero el cliente trata ' +
    'siempre con Reparo Hogar, que responde ante él del resultado aunque el trabajo lo haga un colaborador.',
  performedBy:
    'Técnicos de la plantilla de Reparo Hogar o profesionales colaboradores de su red local, con seguro de ' +
    'responsabilidad civil, seleccionados y supervisados por Reparo Hogar.',
  quotedBy:
    'Reparo Hogar, con un presupuesto por escrito y sin compromiso antes de empezar cualquier trabajo.',
  invoicedBy:
    'Reparo Hogar Servicios S.L. emite la factura al cliente; el profesional colaborador nunca cobra directamente.',
  warranty:
    'Reparo Hogar da 12 meses de garantía sobre la mano de obra y las piezas que instala, también cuando el ' +
    'trabajo lo ha hecho un colaborador.',
  booking:
    'Nada se reserva, contrata ni paga en esta web: el aviso se da por teléfono o por correo electrónico, el ' +
    'presupuesto se acepta por escrito y se paga al terminar, con factura.',
  onlineBooking: false,
} as const;

/** The steps of every job, whoever does it. */
export const serviceSteps = [
  {
    title: 'Nos avisas',
    text: 'Por teléfono (urgencias a cualquier hora) o por correo electrónico, con una descripción y, si puedes, fotos del problema.',
  },
  {
    title: 'Visita y presupuesto por escrito',
    text: 'Un técnico va a tu casa, diagnostica y te da el precio por escrito antes de empezar. Sin compromiso.',
  },
  {
    title: 'Reparación',
    text: 'La hace un técnico de nuestra plantilla o un profesional colaborador de nuestra red local, con el material del presupuesto.',
  },
  {
    title: 'Factura y garantía',
    text: 'Pagas al terminar, con factura de Reparo Hogar, que te da la garantía y responde del trabajo.',
  },
] as const;

export const coverage =
  '21 ciudades de España y sus áreas metropolitanas: península, Baleares (Mallorca) y Canarias ' +
  '(Tenerife y Las Palmas de Gran Canaria).';

export const services: Service[] = [
  {
    slug: 'fontaneria',
    name: 'Fontanería',
    pros: 'fontaneros',
    summary: 'Fugas de agua, grifos, cisternas, tuberías y termos eléctricos.',
    emergency: true,
    prices: [
      { concept: 'Reparar una fuga visible en tubería', from: 60, unit: '' },
      { concept: 'Cambiar un grifo (mano de obra)', from: 45, unit: '' },
      { concept: 'Reparar el mecanismo de una cisterna', from: 50, unit: '' },
      { concept: 'Instalar un termo eléctrico (mano de obra)', from: 120, unit: '' },
      { concept: 'Localizar una fuga oculta con equipo de detección', from: 150, unit: '' },
    ],
  },
  {
    slug: 'electricidad',
    name: 'Electricidad',
    pros: 'electricistas',
    summary: 'Averías, cortes de luz, cuadros eléctricos, enchufes y certificados.',
    emergency: true,
    prices: [
      { concept: 'Localizar y reparar una avería sencilla', from: 55, unit: '' },
      { concept: 'Cambiar un enchufe o interruptor', from: 25, unit: '' },
      { concept: 'Sustituir un diferencial o magnetotérmico', from: 70, unit: '' },
      { concept: 'Renovar el cuadro eléctrico de una vivienda', from: 350, unit: '' },
      { concept: 'Certificado de instalación eléctrica (boletín)', from: 120, unit: '' },
    ],
  },
  {
    slug: 'cerrajeria',
    name: 'Cerrajería',
    pros: 'cerrajeros',
    summary: 'Apertura de puertas, cambio de cerraduras y bombines de seguridad.',
    emergency: true,
    prices: [
      { concept: 'Apertura de puerta cerrada de golpe, sin daños', from: 80, unit: '' },
      { concept: 'Cambio de bombín de seguridad (bombín incluido)', from: 95, unit: '' },
      { concept: 'Instalar una cerradura de seguridad', from: 150, unit: '' },
      { concept: 'Cambio de cerradura de buzón', from: 30, unit: '' },
    ],
  },
  {
    slug: 'carpinteria',
    name: 'Carpintería',
    pros: 'carpinteros',
    summary: 'Puertas que rozan, armarios, tarimas, rodapiés y ajustes de madera.',
    emergency: false,
    prices: [
      { concept: 'Ajustar o cepillar una puerta que roza', from: 45, unit: '' },
      { concept: 'Cambiar bisagras o manillas de una puerta', from: 35, unit: '' },
      { concept: 'Instalar una puerta de paso (mano de obra)', from: 180, unit: '' },
      { concept: 'Reparar tarima o parqué', from: 30, unit: '/m²' },
      { concept: 'Montar un armario o mueble a medida', from: 90, unit: '' },
    ],
  },
  {
    slug: 'pintura',
    name: 'Pintura',
    pros: 'pintores',
    summary: 'Pintura de pisos y techos, alisado de gotelé y tratamiento de manchas.',
    emergency: false,
    prices: [
      { concept: 'Pintura plástica en paredes y techos', from: 7, unit: '/m²' },
      { concept: 'Pintar una habitación de hasta 12 m² de suelo', from: 180, unit: '' },
      { concept: 'Alisar paredes con gotelé', from: 12, unit: '/m²' },
      { concept: 'Pintar un piso completo de 80 m²', from: 1200, unit: '' },
    ],
  },
  {
    slug: 'albanileria',
    name: 'Albañilería',
    pros: 'albañiles',
    summary: 'Pequeñas obras, azulejos, tabiques, rozas y cambio de bañera por ducha.',
    emergency: false,
    prices: [
      { concept: 'Reponer azulejos sueltos o rotos', from: 50, unit: '' },
      { concept: 'Abrir y cerrar una roza para una reparación', from: 40, unit: '' },
      { concept: 'Levantar un tabique de ladrillo', from: 35, unit: '/m²' },
      { concept: 'Cambiar la bañera por un plato de ducha', from: 900, unit: '' },
    ],
  },
  {
    slug: 'climatizacion',
    name: 'Climatización',
    pros: 'técnicos de aire acondicionado',
    summary: 'Aire acondicionado: instalación, limpieza, recarga de gas y averías.',
    emergency: false,
    prices: [
      { concept: 'Revisión y limpieza de un split', from: 60, unit: '' },
      { concept: 'Diagnóstico y reparación de una avería', from: 55, unit: '' },
      { concept: 'Recarga de gas refrigerante', from: 90, unit: '' },
      { concept: 'Instalar un split de hasta 3.000 frigorías (mano de obra)', from: 250, unit: '' },
    ],
  },
  {
    slug: 'calefaccion',
    name: 'Calefacción',
    pros: 'técnicos de calefacción',
    summary: 'Calderas de gas, radiadores, termostatos y revisiones obligatorias.',
    emergency: true,
    prices: [
      { concept: 'Revisión periódica de caldera de gas', from: 75, unit: '' },
      { concept: 'Diagnóstico y reparación de caldera', from: 60, unit: '' },
      { concept: 'Purgar y equilibrar los radiadores', from: 45, unit: '' },
      { concept: 'Cambiar un termostato', from: 70, unit: '' },
      { concept: 'Sustituir un radiador (mano de obra)', from: 140, unit: '' },
    ],
  },
  {
    slug: 'desatascos',
    name: 'Desatascos',
    pros: 'técnicos de desatascos',
    summary: 'Fregaderos, inodoros, duchas, bajantes y arquetas atascadas.',
    emergency: true,
    prices: [
      { concept: 'Desatasco de fregadero, lavabo o ducha', from: 65, unit: '' },
      { concept: 'Desatasco de inodoro', from: 75, unit: '' },
      { concept: 'Desatasco de bajante o colector con máquina', from: 120, unit: '' },
      { concept: 'Inspección de tuberías con cámara', from: 140, unit: '' },
    ],
  },
  {
    slug: 'persianas',
    name: 'Persianas',
    pros: 'técnicos de persianas',
    summary: 'Cintas rotas, lamas, persianas atascadas y motorización.',
    emergency: false,
    prices: [
      { concept: 'Cambiar la cinta de una persiana', from: 35, unit: '' },
      { concept: 'Reponer lamas rotas', from: 40, unit: '' },
      { concept: 'Reparar una persiana atascada o descolgada', from: 55, unit: '' },
      { concept: 'Motorizar una persiana (motor incluido)', from: 190, unit: '' },
    ],
  },
  {
    slug: 'cristaleria',
    name: 'Cristalería',
    pros: 'cristaleros',
    summary: 'Cristales rotos, doble acristalamiento, espejos y mamparas de ducha.',
    emergency: true,
    prices: [
      { concept: 'Cierre provisional de una ventana rota', from: 70, unit: '' },
      { concept: 'Sustituir un cristal sencillo', from: 60, unit: '/m²' },
      { concept: 'Doble acristalamiento con cámara', from: 95, unit: '/m²' },
      { concept: 'Instalar una mampara de ducha (mano de obra)', from: 120, unit: '' },
    ],
  },
  {
    slug: 'antenas',
    name: 'Antenas',
    pros: 'antenistas',
    summary: 'Antenas de TDT, parabólicas, tomas de televisión y resintonización.',
    emergency: false,
    prices: [
      { concept: 'Reorientar la antena y resintonizar', from: 60, unit: '' },
      { concept: 'Instalar una toma de televisión adicional', from: 55, unit: '' },
      { concept: 'Sustituir el amplificador', from: 110, unit: '' },
      { concept: 'Instalar una antena de TDT individual', from: 180, unit: '' },
    ],
  },
  {
    slug: 'pladur',
    name: 'Pladur',
    pros: 'instaladores de pladur',
    summary: 'Tabiques, falsos techos, trasdosados y reparaciones de placa de yeso.',
    emergency: false,
    prices: [
      { concept: 'Reparar un agujero o golpe en una placa', from: 60, unit: '' },
      { concept: 'Tabique de pladur con aislamiento', from: 32, unit: '/m²' },
      { concept: 'Falso techo de placa de yeso', from: 28, unit: '/m²' },
      { concept: 'Trasdosado de pared con aislamiento térmico', from: 35, unit: '/m²' },
    ],
  },
  {
    slug: 'impermeabilizacion',
    name: 'Impermeabilización',
    pros: 'técnicos de impermeabilización',
    summary: 'Humedades, filtraciones, terrazas, cubiertas y condensación.',
    emergency: false,
    prices: [
      { concept: 'Diagnóstico de humedades con medidor', from: 70, unit: '' },
      { concept: 'Sellado de juntas de ventanas y marcos', from: 45, unit: '' },
      { concept: 'Impermeabilizar una terraza', from: 38, unit: '/m²' },
      { concept: 'Tratamiento de humedad por capilaridad', from: 90, unit: '/m lineal' },
    ],
  },
  {
    slug: 'reparacion-electrodomesticos',
    name: 'Reparación de electrodomésticos',
    pros: 'técnicos de electrodomésticos',
    summary: 'Lavadoras, lavavajillas, frigoríficos, hornos y vitrocerámicas, en tu casa.',
    emergency: false,
    prices: [
      { concept: 'Diagnóstico a domicilio (se descuenta si se repara)', from: 35, unit: '' },
      { concept: 'Cambiar la bomba de desagüe de una lavadora', from: 90, unit: '' },
      { concept: 'Cambiar escobillas o correa de una lavadora', from: 80, unit: '' },
      { concept: 'Cambiar la resistencia de un horno', from: 85, unit: '' },
      { concept: 'Reparar un frigorífico que no enfría', from: 120, unit: '' },
    ],
  },
];

export const cities: City[] = [
  {
    slug: 'tenerife',
    name: 'Tenerife',
    province: 'Santa Cruz de Tenerife',
    region: 'Canarias',
    tax: 'IGIC',
  },
  {
    slug: 'las-palmas',
    name: 'Las Palmas de Gran Canaria',
    province: 'Las Palmas',
    region: 'Canarias',
    tax: 'IGIC',
  },
  {
    slug: 'mallorca',
    name: 'Mallorca',
    province: 'Illes Balears',
    region: 'Illes Balears',
    tax: 'IVA',
  },
  { slug: 'madrid', name: 'Madrid', province: 'Madrid', region: 'Comunidad de Madrid', tax: 'IVA' },
  { slug: 'barcelona', name: 'Barcelona', province: 'Barcelona', region: 'Cataluña', tax: 'IVA' },
  {
    slug: 'valencia',
    name: 'Valencia',
    province: 'Valencia',
    region: 'Comunitat Valenciana',
    tax: 'IVA',
  },
  { slug: 'zaragoza', name: 'Zaragoza', province: 'Zaragoza', region: 'Aragón', tax: 'IVA' },
  { slug: 'sevilla', name: 'Sevilla', province: 'Sevilla', region: 'Andalucía', tax: 'IVA' },
  { slug: 'malaga', name: 'Málaga', province: 'Málaga', region: 'Andalucía', tax: 'IVA' },
  { slug: 'granada', name: 'Granada', province: 'Granada', region: 'Andalucía', tax: 'IVA' },
  { slug: 'vigo', name: 'Vigo', province: 'Pontevedra', region: 'Galicia', tax: 'IVA' },
  { slug: 'murcia', name: 'Murcia', province: 'Murcia', region: 'Región de Murcia', tax: 'IVA' },
  { slug: 'cordoba', name: 'Córdoba', province: 'Córdoba', region: 'Andalucía', tax: 'IVA' },
  { slug: 'bilbao', name: 'Bilbao', province: 'Bizkaia', region: 'País Vasco', tax: 'IVA' },
  {
    slug: 'alicante',
    name: 'Alicante',
    province: 'Alicante',
    region: 'Comunitat Valenciana',
    tax: 'IVA',
  },
  {
    slug: 'valladolid',
    name: 'Valladolid',
    province: 'Valladolid',
    region: 'Castilla y León',
    tax: 'IVA',
  },
  {
    slug: 'gijon',
    name: 'Gijón',
    province: 'Asturias',
    region: 'Principado de Asturias',
    tax: 'IVA',
  },
  { slug: 'a-coruna', name: 'A Coruña', province: 'A Coruña', region: 'Galicia', tax: 'IVA' },
  {
    slug: 'elche',
    name: 'Elche',
    province: 'Alicante',
    region: 'Comunitat Valenciana',
    tax: 'IVA',
  },
  {
    slug: 'oviedo',
    name: 'Oviedo',
    province: 'Asturias',
    region: 'Principado de Asturias',
    tax: 'IVA',
  },
  {
    slug: 'pamplona',
    name: 'Pamplona',
    province: 'Navarra',
    region: 'Comunidad Foral de Navarra',
    tax: 'IVA',
  },
];

/** Addresses of the pages of the site, by name. */
export const pages = {
  inicio: '/',
  servicios: '/servicios/',
  ciudades: '/ciudades/',
  urgencias: '/urgencias/',
  como_funciona: '/como-funciona/',
  precios: '/precios/',
  contacto: '/contacto/',
  empresa: '/empresa/',
  privacidad: '/privacidad/',
  guias: '/guias/',
  desarrolladores: '/desarrolladores/',
  versionado: '/desarrolladores/#versionado',
} as const;

export function serviceUrl(service: Pick<Service, 'slug'>): string {
  return `/servicios/${service.slug}/`;
}

export function cityUrl(city: Pick<City, 'slug'>): string {
  return `/ciudades/${city.slug}/`;
}

export function serviceCityUrl(service: Pick<Service, 'slug'>, city: Pick<City, 'slug'>): string {
  return `/servicios/${service.slug}/${city.slug}/`;
}

export function findService(slug: string): Service {
  const service = services.find((s) => s.slug === slug);
  if (!service) throw new Error(`Unknown service slug "${slug}" (see src/data/company.ts)`);
  return service;
}

export function findCity(slug: string): City {
  const city = cities.find((c) => c.slug === slug);
  if (!city) throw new Error(`Unknown city slug "${slug}" (see src/data/company.ts)`);
  return city;
}

/** "desde 60 €", "7 €/m²", "gratis". */
export function formatPrice(item: PriceItem): string {
  if (item.from === 0) return 'Gratis';
  const amount = new Intl.NumberFormat('es-ES').format(item.from);
  return `desde ${amount} €${item.unit}`;
}

export function taxFor(city: Pick<City, 'tax'>): { name: string; rate: number } {
  return city.tax === 'IGIC' ? tax.canarias : tax.peninsula;
}

/** The facts served by get_company_info (docs/contract.md §2). URLs are site paths; the build makes them absolute. */
export const companyInfo: CompanyInfo = {
  brand: company.brand,
  website: '/',
  legal_name: company.legalName,
  tax_id: company.taxId,
  address: company.address,
  phone: company.phone,
  email: company.email,
  whatsapp: company.whatsapp,
  hours: `${company.hours.office}. ${company.hours.emergencies}.`,
  coverage,
  tax: tax.note,
  prices: `${pricesNote} Tarifas generales: ${generalPrices.map((p) => `${p.concept}: ${formatPrice(p)}`).join('; ')}. La tabla completa por servicio está en la página de precios.`,
  service_model: {
    description: serviceModel.description,
    online_booking: serviceModel.onlineBooking,
    performed_by: serviceModel.performedBy,
    quoted_by: serviceModel.quotedBy,
    invoiced_by: serviceModel.invoicedBy,
    warranty: serviceModel.warranty,
  },
  services: services.map((s) => ({ name: s.name, url: serviceUrl(s) })),
  cities: cities.map((c) => ({ slug: c.slug, name: c.name, url: cityUrl(c) })),
  pages: { ...pages },
};
