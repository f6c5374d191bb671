import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Manifest } from '../../content/manifest.ts';

export const ANSWER_PROMPT_NAME = 'answer_customer_question';

const answerArguments = z.object({
  question: z
    .string()
    .trim()
    .min(2)
    .max(1000)
    .describe('La pregunta del cliente, tal como la escribió. The customer question, as they wrote it.'),
});

/**
 * One prompt that turns a customer question into a grounded answer: search first, read the result,
 * cite its URL, and never promise what the site does not offer online (SPEC §1: nothing is booked).
 */
export function registerAnswerPrompt(server: McpServer, manifest: Pick<Manifest, 'site' | 'options' | 'company'>): void {
  server.registerPrompt(
    ANSWER_PROMPT_NAME,
    {
      title: 'Answer a customer question from the site',
      description:
        'Responde a la pregunta de un cliente con el contenido publicado del sitio, citando las páginas. ' +
        "Answers a customer's question from the site's published content, citing the pages.",
      argsSchema: answerArguments,
    },
    ({ question }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: buildAnswerPromptText(manifest, question) } }],
    }),
  );
}

export function buildAnswerPromptText({ site, options, company }: Pick<Manifest, 'site' | 'options' | 'company'>, question: string): string {
  const model = company?.service_model;
  const brand = options.name;
  const contact = [
    company?.phone ? `phone ${company.phone}` : '',
    company?.whatsapp ? `WhatsApp ${company.whatsapp}` : '',
    company?.email ? `e-mail ${company.email}` : '',
  ].filter(Boolean);
  return [
    `A customer of ${brand} (${site}) asks:`,
    '',
    `"${question}"`,
    '',
    "Answer from this site's published content only:",
    '1. Search first with search_pages: a short query in Spanish; pass `city` when the customer names a city.',
    '2. Read the most relevant result with read_page, passing its `url`; read another one if it does not answer.',
    '3. For contact data, hours, coverage, prices or how the service works, use get_company_info.',
    "4. Answer briefly, in the customer's language, and cite the URL of every page you used.",
    `5. Service model: ${model?.description ?? `${brand} answers for every job it arranges.`} ` +
      'Nothing is booked, hired or paid online' +
      (contact.length > 0 ? `: to book, the customer contacts ${brand} (${contact.join(', ')}).` : '.') +
      ' Do not promise prices, dates or availability that the pages do not state.',
    '',
    'If the site does not answer the question, say so and give the contact data.',
  ].join('\n');
}
