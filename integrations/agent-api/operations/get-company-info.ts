import { z } from 'zod';
import { companyInfoSchema } from './schemas.ts';
import type { OperationDescription } from './operation.ts';

export const COMPANY_SECTIONS = ['all', 'contact', 'service_model', 'coverage', 'services'] as const;

export const getCompanyInfoInput = z.object({
  section: z
    .enum(COMPANY_SECTIONS)
    .default('all')
    .describe('Part of the company data: `all` (default), `contact`, `service_model`, `coverage` or `services`.'),
});

export const getCompanyInfo = {
  name: 'get_company_info',
  path: '/get_company_info',
  scope: 'content:read',
  title: 'Company data',
  description:
    'Datos de la empresa: contacto, horario, cobertura, impuestos, precios orientativos, modelo de servicio y catálogo de servicios y ciudades. ' +
    'Company data: contact, hours, coverage, tax, indicative prices, service model and the catalogue of services and cities.',
  input: getCompanyInfoInput,
  output: companyInfoSchema,
} as const satisfies OperationDescription;
