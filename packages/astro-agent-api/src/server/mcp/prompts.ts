import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Manifest } from '../../content/manifest.ts';
import { findOperationRoles } from '../../operations/operation.ts';
import { COMPANY_SECTIONS } from '../../operations/get-company-info.ts';
import { createOperations } from '../../operations/index.ts';
import { languageList, languageName } from '../../operations/search-pages.ts';

const answerArguments = z.object({
  question: z.string().trim().min(2).max(1000).describe('The question, as the person wrote it.'),
});

/**
 * One prompt that turns a question into a grounded answer: search first, read the result, cite its
 * URL, respect the site's notes, and promise nothing the pages do not state.
 */
export function registerAnswerPrompt(
  server: McpServer,
  manifest: Pick<Manifest, 'site' | 'options' | 'company'>,
): void {
  server.registerPrompt(
    manifest.options.documents.promptName,
    {
      title: 'Answer a question from the site',
      description:
        "Answers a person's question from the site's published content, citing the pages.",
      argsSchema: answerArguments,
    },
    ({ question }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: buildAnswerPromptText(manifest, question) },
        },
      ],
    }),
  );
}

/** The company facts get_company_info gives by section: `service_model` → `service model`. */
const COMPANY_TOPICS = COMPANY_SECTIONS.filter((section) => section !== 'all').map((section) =>
  section.replace('_', ' '),
);

/** The prompt's text, from the site's options: its language, facets, notes and rules, and its company facts only when it has them. */
export function buildAnswerPromptText(
  manifest: Pick<Manifest, 'site' | 'options' | 'company'>,
  question: string,
): string {
  const { site, options, company } = manifest;
  const name = options.name;
  const {
    search,
    read,
    company: companyOperation,
  } = findOperationRoles(createOperations(manifest));
  const facets = Object.keys(options.facets).map(
    (facet) => `; pass \`${facet}\` when the question names one of its values`,
  );
  const contact = [
    company?.phone ? `phone ${company.phone}` : '',
    company?.whatsapp ? `WhatsApp ${company.whatsapp}` : '',
    company?.email ? `e-mail ${company.email}` : '',
  ].filter(Boolean);

  const steps = [
    options.languages.length > 1
      ? `Search first with ${search.name}: a short query in any of: ${languageList(options.languages)} (best in the question's language when it is one of them); pass \`language\` to keep to one of them${facets.join('')}.`
      : `Search first with ${search.name}: a short query in ${languageName(options.language)}${facets.join('')}.`,
    `Read the most relevant result with ${read.name}, passing its \`url\`; read another one if it does not answer.`,
    ...(companyOperation
      ? [`For the company's ${COMPANY_TOPICS.join(', ')}, use ${companyOperation.name}.`]
      : []),
    'Answer briefly, in the language of the question, and cite the URL of every page you used.',
    ...options.documents.notes,
    ...(contact.length > 0
      ? [`To go further, the person contacts ${name} (${contact.join(', ')}).`]
      : []),
    'State nothing the pages do not support.',
    ...options.documents.promptRules,
  ];
  return [
    `Someone asks about ${name} (${site}):`,
    '',
    `"${question}"`,
    '',
    "Answer from this site's published content only:",
    ...steps.map((step, index) => `${index + 1}. ${step}`),
    '',
    companyOperation
      ? 'If the site does not answer the question, say so and give the contact data.'
      : 'If the site does not answer the question, say so.',
  ].join('\n');
}
