import { z } from 'zod';
import { companyInfoSchema } from '../contract/company-info.ts';
import type { CompanyInfo } from '../contract/company-info.ts';
import { OPERATION_NAMES, type Operation } from './operation.ts';

export const COMPANY_SECTIONS = [
  'all',
  'contact',
  'service_model',
  'coverage',
  'services',
] as const;

export const getCompanyInfoInput = z.object({
  section: z
    .enum(COMPANY_SECTIONS)
    .default('all')
    .describe(
      'Part of the company data: `all` (default), `contact`, `service_model`, `coverage` or `services`.',
    ),
});

export const getCompanyInfo = {
  name: OPERATION_NAMES.company,
  path: '/get_company_info',
  policy: { scope: 'content:read', token: 'optional', quota: 'count', cache: 'build' },
  title: 'Company data',
  description:
    "The company's published facts: contact channels, hours, coverage, tax, indicative prices, service model and the catalogue " +
    '(services and places served, each with its page). Use `section` to get one part.',
  input: getCompanyInfoInput,
  output: companyInfoSchema,
  async handle({ section }, { content }) {
    // Offered only when the build has company facts (createOperations).
    return selectCompanySection(content.manifest.company!, section);
  },
  buildKey: ({ section }) => section,
} as const satisfies Operation<typeof getCompanyInfoInput, typeof companyInfoSchema>;

type Section = (typeof COMPANY_SECTIONS)[number];

const SECTION_FIELDS: Record<Exclude<Section, 'all'>, (keyof CompanyInfo)[]> = {
  contact: ['legal_name', 'address', 'phone', 'email', 'whatsapp', 'hours', 'pages'],
  service_model: ['service_model'],
  coverage: ['coverage', 'cities', 'tax'],
  services: ['services', 'prices'],
};

/** `brand` and `website` are required in every answer; a section adds only its own fields. */
export function selectCompanySection(company: CompanyInfo, section: Section): CompanyInfo {
  if (section === 'all') return company;
  const selected: CompanyInfo = { brand: company.brand, website: company.website };
  for (const field of SECTION_FIELDS[section]) {
    if (company[field] !== undefined) Object.assign(selected, { [field]: company[field] });
  }
  return selected;
}
