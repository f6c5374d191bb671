/**
 * Text of the generated benchmark pages: one page per service × city × neighbourhood, composed from
 * the demo's own service and city data plus sentences picked by a seeded generator, so that pages share
 * vocabulary (as real sites do) without being copies of each other. Copied into a generated site as
 * `src/data/barrio-text.ts`; only erasable TypeScript, no imports.
 */

export interface BarrioRef {
  service: { slug: string; name: string; pros: string; summary: string };
  city: { slug: string; name: string; region: string };
}

export interface BarrioText {
  slug: string;
  name: string;
  title: string;
  description: string;
  paragraphs: string[];
  tips: string[];
  street: string;
}

const PREFIXES = [
  '',
  'San ',
  'Santa ',
  'El ',
  'La ',
  'Los ',
  'Las ',
  'Barrio de ',
  'Ensanche de ',
  'Casco de ',
];
// biome-ignore format: a word list, read in rows
const ROOTS = [
  'Centro', 'Norte', 'Sur', 'Estación', 'Puerto', 'Castillo', 'Molinos', 'Olivos', 'Huertas', 'Pinar', 'Rosales',
  'Fuente', 'Alameda', 'Ribera', 'Vega', 'Cañada', 'Lomas', 'Arenal', 'Carmen', 'Remedios', 'Almendros', 'Prado',
  'Universidad', 'Hospital', 'Mercado', 'Feria', 'Catedral', 'Ermita', 'Jardines', 'Cerro', 'Parque', 'Llano',
];
const STREETS = [
  'calle Mayor',
  'avenida de la Constitución',
  'calle Real',
  'paseo del Río',
  'calle Nueva',
  'plaza de España',
  'calle del Sol',
  'ronda Norte',
];
const OPENERS = [
  (s: string, b: string, c: string) =>
    `En ${b} (${c}) atendemos avisos de ${s} casi todos los días, sobre todo en edificios de los años setenta.`,
  (s: string, b: string, c: string) =>
    `Los vecinos de ${b} nos llaman para trabajos de ${s}: reparaciones pequeñas, revisiones y alguna urgencia de madrugada en ${c}.`,
  (s: string, b: string, c: string) =>
    `${b} es una de las zonas de ${c} con más avisos de ${s} por la antigüedad de sus instalaciones.`,
  (s: string, b: string, c: string) =>
    `Si vives en ${b}, en ${c}, un técnico de ${s} puede estar en tu casa normalmente en menos de dos horas.`,
];
const SENTENCES = [
  'Damos presupuesto por escrito antes de empezar y el precio no cambia si el trabajo se alarga.',
  'Muchas comunidades de vecinos de la zona tienen bajantes de fibrocemento que conviene revisar.',
  'Las persianas y las ventanas de aluminio antiguo suelen dar problemas al llegar el invierno.',
  'En los pisos reformados encontramos tuberías de polietileno, más fáciles de reparar sin obra.',
  'Llevamos repuestos de las marcas más comunes en la furgoneta para terminar en una sola visita.',
  'Si hay una fuga, cierra la llave de paso general antes de que llegue el técnico.',
  'La garantía de la mano de obra es de doce meses y cubre cualquier repetición de la avería.',
  'Trabajamos también los sábados por la mañana sin recargo para trabajos programados.',
  'Los edificios con calderas comunitarias necesitan permiso del administrador para algunas reparaciones.',
  'En verano aumentan los avisos de aire acondicionado y de cortes de luz por sobrecarga.',
  'Las humedades en paredes interiores suelen venir de una tubería empotrada con pérdida.',
  'Un cuadro eléctrico antiguo sin diferencial es la causa más habitual de los saltos de luz.',
  'Para las cerraduras de seguridad pedimos que muestres un documento que acredite la vivienda.',
  'Aparcar cerca es difícil en hora punta, por eso avisamos con quince minutos de antelación.',
  'Pintar un piso de tres habitaciones lleva entre tres y cuatro días con dos pintores.',
  'Los electrodomésticos de más de diez años a menudo no compensa repararlos: te lo diremos.',
  'Revisamos gratis la instalación cercana cuando reparamos una avería, por si hay otra a punto de salir.',
  'Aceptamos pago con tarjeta, transferencia o Bizum al terminar el trabajo.',
  'Las antenas colectivas de los edificios altos se desorientan con los temporales de viento.',
  'Un atasco en el fregadero casi siempre se resuelve sin desmontar el mueble.',
];
const TIPS = [
  'Anota el modelo del aparato antes de llamar',
  'Haz una foto de la avería',
  'Localiza la llave de paso',
  'Apaga el diferencial si huele a quemado',
  'Avisa al administrador si afecta a zonas comunes',
  'Guarda la factura para la garantía',
  'Ventila la habitación después de pintar',
  'No uses productos químicos en los desagües',
  'Revisa la presión de la caldera cada mes',
];

/** A small deterministic generator (mulberry32), so every build of a size has the same pages. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** The name of the `index`-th neighbourhood of a city, unique within the city. */
export function barrioName(index: number): string {
  const root = ROOTS[index % ROOTS.length]!;
  const prefix = PREFIXES[Math.floor(index / ROOTS.length) % PREFIXES.length]!;
  const round = Math.floor(index / (ROOTS.length * PREFIXES.length));
  return `${prefix}${root}${round > 0 ? ` ${round + 1}` : ''}`;
}

export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function buildBarrioText(ref: BarrioRef, barrioIndex: number, seed: number): BarrioText {
  const random = createRandom(seed);
  const name = barrioName(barrioIndex);
  const trade = ref.service.name.toLowerCase();
  const sentences = [...SENTENCES]
    .sort(() => random() - 0.5)
    .slice(0, 5 + Math.floor(random() * 5));
  const minutes = 30 + Math.floor(random() * 90);
  const street = `${pick(STREETS, random)}, ${1 + Math.floor(random() * 120)}`;
  const paragraphs = [
    pick(OPENERS, random)(trade, name, ref.city.name),
    `${ref.service.summary} Nuestros ${ref.service.pros} de ${ref.city.region} cubren ${name} y los barrios de alrededor.`,
    sentences.slice(0, 3).join(' '),
    `El último aviso en ${name} fue en la ${street}; el técnico llegó en ${minutes} minutos.`,
    sentences.slice(3).join(' '),
  ];
  return {
    slug: slugify(name),
    name,
    title: `${ref.service.name} en ${name}, ${ref.city.name}`,
    description: `${ref.service.name} a domicilio en ${name} (${ref.city.name}): presupuesto por escrito, precio cerrado y garantía.`,
    paragraphs,
    tips: [...TIPS].sort(() => random() - 0.5).slice(0, 3),
    street,
  };
}
