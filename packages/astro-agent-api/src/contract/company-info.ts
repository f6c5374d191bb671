import { z } from 'zod';

/** docs/contract.md §2 — Service model. */
export const serviceModelSchema = z
  .object({
    description: z.string(),
    online_booking: z
      .literal(false)
      .describe('Always false: nothing is booked, hired or paid online.'),
    performed_by: z.string().optional(),
    quoted_by: z.string().optional(),
    invoiced_by: z.string().optional(),
    warranty: z.string().optional(),
  })
  .meta({ id: 'ServiceModel' });

/** docs/contract.md §2 — Company info. URLs may be written as site paths; the build makes them absolute. */
export const companyInfoSchema = z
  .object({
    brand: z.string().min(1),
    website: z.string().min(1),
    legal_name: z.string().optional(),
    tax_id: z.string().optional(),
    address: z.string().optional(),
    phone: z.string().optional().describe('Empty when the site publishes no phone number.'),
    email: z.string().optional(),
    whatsapp: z.string().optional().describe('Empty when there is no WhatsApp contact.'),
    hours: z.string().optional(),
    coverage: z.string().optional(),
    tax: z.string().optional(),
    prices: z.string().optional(),
    service_model: serviceModelSchema.optional(),
    services: z.array(z.object({ name: z.string(), url: z.string() })).optional(),
    cities: z.array(z.object({ slug: z.string(), name: z.string(), url: z.string() })).optional(),
    pages: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'CompanyInfo' });

export type CompanyInfo = z.output<typeof companyInfoSchema>;
