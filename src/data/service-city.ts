/**
 * The text of the 315 service × city pages, composed from the service data and the city data.
 * Sentences are templated with a few variants, chosen by a stable index so that neighbouring pages
 * do not read the same.
 */
import { cities, company, services, taxFor, type City, type Service } from './company.ts';
import { findCityText, type CityText } from './cities.ts';
import { findServiceText, type ServiceText } from './services.ts';

export interface ServiceCityText {
  title: string;
  description: string;
  intro: string;
  jobs: string;
  areas: string;
  climate: string;
  response: string;
  tax: string;
  model: string;
}

function pick<T>(variants: readonly T[], index: number): T {
  return variants[index % variants.length] as T;
}

/** "a, b y c" */
export function joinEs(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export function buildServiceCityText(service: Service, city: City): ServiceCityText {
  const s: ServiceText = findServiceText(service.slug);
  const c: CityText = findCityText(city.slug);
  const seed = services.indexOf(service) * 7 + cities.indexOf(city) * 3;
  const trade = lowerFirst(service.name);
  const [job1, job2, job3] = s.jobs;
  const cityTax = taxFor(city);

  const intro = pick(
    [
      `¿Necesitas ${service.pros} en ${city.name}? ${company.brand} atiende avisos de ${trade} en toda la ciudad y en su área metropolitana, con presupuesto por escrito antes de empezar y precio cerrado.`,
      `Nuestros ${service.pros} trabajan cada día en ${city.name} (${city.region}): ${job1}, ${job2} o ${job3} son algunos de los avisos que más recibimos aquí.`,
      `En ${city.name} resolvemos trabajos de ${trade} con técnicos que conocen la ciudad y sus edificios. ${c.housing}`,
      `Servicio de ${trade} a domicilio en ${city.name} y alrededores, desde ${job1} hasta ${job3}, con el mismo presupuesto por escrito y la misma garantía que en el resto de ciudades de ${company.brand}.`,
    ],
    seed,
  );

  const jobs = pick(
    [
      `Lo que más nos piden en ${city.name}:`,
      `Trabajos de ${trade} habituales en ${city.name}:`,
      `Estos son los problemas de ${trade} que más resolvemos en ${city.name}:`,
    ],
    seed + 1,
  );

  const areas = pick(
    [
      `Cubrimos ${city.name} (${joinEs(c.districts)}) y también ${joinEs(c.nearby)}.`,
      `Nuestros ${service.pros} se desplazan a todos los barrios de ${city.name}, como ${joinEs(c.districts)}, y a los municipios cercanos: ${joinEs(c.nearby)}.`,
      `Zonas atendidas en ${city.name}: ${joinEs(c.districts)}. En los alrededores: ${joinEs(c.nearby)}.`,
    ],
    seed + 2,
  );

  const scheduled = `Los trabajos que pueden esperar se programan ${c.scheduledResponse}, en la franja de mañana o de tarde que prefieras.`;
  const response = service.emergency
    ? `Para una urgencia de ${trade} en ${city.name} atendemos las 24 horas en el ${company.phone}; el técnico tarda normalmente ${c.urgentResponse}. ${scheduled}`
    : `${scheduled} Este servicio no se presta como urgencia: si el problema no puede esperar (una fuga, un corte de luz, una puerta cerrada), llama a nuestras urgencias 24 horas en ${city.name}.`;

  const tax =
    city.tax === 'IGIC'
      ? `Precios orientativos sin impuestos. En ${city.name}, como en todo Canarias, no se aplica IVA: la factura lleva el ${cityTax.name} del ${cityTax.rate}\u00a0%.`
      : `Precios orientativos sin impuestos. En ${city.name} se añade el ${cityTax.name} del ${cityTax.rate}\u00a0%.`;

  const model = pick(
    [
      `El técnico que va a tu casa en ${city.name} puede ser de nuestra plantilla o un profesional colaborador de nuestra red local; en los dos casos el presupuesto, la factura y la garantía son de ${company.brand}, que responde ante ti del resultado.`,
      `Como en el resto de ciudades, ${company.brand} presupuesta, factura y garantiza el trabajo aunque lo haga un profesional colaborador de ${city.name}. Nada se contrata ni se paga en la web: pides el servicio por teléfono o correo y pagas al terminar.`,
      `Pides el servicio por teléfono o por correo, recibes el presupuesto por escrito y pagas al terminar, con factura de ${company.legalName}. Si el trabajo lo hace un colaborador de ${city.name}, ${company.brand} sigue siendo quien responde ante ti.`,
    ],
    seed + 3,
  );

  return {
    title: `${service.name} en ${city.name}`,
    description: `${service.pros.charAt(0).toUpperCase()}${service.pros.slice(1)} en ${city.name}: ${lowerFirst(service.summary)} Zonas, tiempos de llegada y precios orientativos.`,
    intro,
    jobs,
    areas,
    climate: s.climate[c.climate].replaceAll('{city}', city.name),
    response,
    tax,
    model,
  };
}
