import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { services } from './data/company.ts';

const serviceSlugs = services.map((service) => service.slug) as [string, ...string[]];

/** Guides about concrete household problems, at /guias/{slug}/. */
const guias = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/guias' }),
  schema: z.object({
    title: z.string().min(10),
    description: z.string().min(50).max(200),
    /** Services the guide sends the reader to; the first one is the main one. */
    services: z.array(z.enum(serviceSlugs)).min(1),
    /** Minutes of reading, shown in the index. */
    minutes: z.number().int().min(1),
    updated: z.coerce.date(),
  }),
});

export const collections = { guias };
