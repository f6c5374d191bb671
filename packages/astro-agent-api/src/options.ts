import { z } from 'zod';
import { AstroError } from 'astro/errors';
import {
  DEFAULT_DIRECTIVES,
  LLMS_TXT_PLACEHOLDER,
  NO_DIRECTIVES,
  TWIN_PLACEHOLDER,
  type DirectiveWording,
} from './contract/agent-directives.ts';
import { companyInfoSchema } from './contract/company-info.ts';
import { canonicalLanguageTag } from './shared/language-tag.ts';
import { quotaSchema } from './environment.ts';
import { IPV6_PREFIXES } from './contract/identity-contract.ts';
import { DEFAULT_API_BASE_PATH } from './contract/paths.ts';
import { DEPRECATION_NOTICE_DAYS } from './contract/versioning.ts';
import { mostCommon, rankByCount } from './shared/most-common.ts';

const pathSchema = z
  .string()
  .regex(
    /^\/[a-z0-9][a-z0-9/_-]*[a-z0-9]$/,
    'a path such as /api/v1 (lowercase, starts with /, no trailing /)',
  );

/** A site path or an absolute http(s) URL, e.g. `/developers/#versioning`. */
const linkSchema = z
  .string()
  .regex(/^(\/|https?:\/\/)\S*$/, 'a site path starting with / or an absolute http(s) URL');

/** BCP 47, e.g. `en`, `es`, `pt-BR`. */
const languageSchema = z
  .string()
  .regex(
    /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/,
    'a BCP 47 language tag such as "en", "es" or "pt-BR"',
  );

/** Facet values are URL-safe slugs: they travel as query parameters and in result fields. */
const slugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a lowercase slug such as "news" or "new-york"');

/** Names that search_pages already uses for its own parameters or result fields. */
const RESERVED_FACET_NAMES = new Set([
  'query',
  'language',
  'limit',
  'cursor',
  'title',
  'url',
  'excerpt',
  'section',
  'total',
  'results',
]);

const facetNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, 'a lowercase name such as "city" or "category"')
  .refine((name) => !RESERVED_FACET_NAMES.has(name), {
    message: `a name that search_pages does not already use (${[...RESERVED_FACET_NAMES].join(', ')})`,
  });

const facetSchema = z
  .object({
    /** Allowed values (slugs) and their labels, e.g. `{ 'new-york': 'New York' }`. A page marked with another value fails the build. */
    values: z
      .record(slugSchema, z.string().min(1))
      .refine((values) => Object.keys(values).length > 0, 'at least one value'),
    /** The parameter value that means "no filter". */
    all: slugSchema.default('all'),
    /** Other names people use for a value in a query, e.g. `{ 'a-coruna': ['Coruña', 'La Coruña'] }`. */
    aliases: z.record(slugSchema, z.array(z.string().min(1))).default({}),
    /** What the facet is, for the parameter's description in openapi.json, agents.md and the MCP tool. */
    description: z.string().min(1).optional(),
  })
  .strict()
  .refine((facet) => !(facet.all in facet.values), {
    message: '`all` must not also be one of the `values`',
    path: ['all'],
  });

/**
 * What crawlers may do with the pages, written to robots.txt in two vocabularies: Content-Signal
 * (contentsignals.org: `search`, `ai-input`, `ai-train`, `use`) and the IETF AIPREF `Content-Usage`
 * rule (draft-ietf-aipref-vocab: `search`, `ai-use`, `train-ai`). A preference left out is not stated.
 */
const usageSchema = z
  .object({
    /** Building a search index and showing links and short excerpts. */
    search: z.boolean().optional(),
    /** Feeding the pages to AI models that answer in real time (retrieval, grounding). */
    aiInput: z.boolean().optional(),
    /** Training or fine-tuning AI models. */
    aiTrain: z.boolean().optional(),
    /**
     * Content Signals' `use`: how much of a page a crawler may keep and reproduce. `immediate`: read it
     * and keep nothing; `reference`: index it, quote excerpts and link back; `full`: summarize and
     * reproduce it. Content-Usage (AIPREF) has no such term: robots.txt states it in Content-Signal only.
     */
    use: z.enum(['immediate', 'reference', 'full']).optional(),
  })
  .strict();

/** RFC 9309 §2.2.1: a crawler's product token, e.g. `GPTBot`. */
const productTokenSchema = z
  .string()
  .regex(/^[A-Za-z_-]{1,64}$/, 'a crawler product token such as "GPTBot" (letters, "_" and "-")');

/** An http(s) origin as an option names it, e.g. `https://chatgpt.com`: scheme, host and port only. */
const originSchema = z
  .string()
  .refine(
    (value) =>
      URL.canParse(value) &&
      /^https?:$/.test(new URL(value).protocol) &&
      new URL(value).origin === value.replace(/\/$/, ''),
    {
      message: 'an origin such as "https://agent.example" (scheme, host and port; no path)',
    },
  )
  .transform((value) => new URL(value).origin);

/** The URL of a signing agent's JWK Set or metadata document, as its identity (signed-agents/signature-agent.ts): a path, no query or fragment. */
const agentKeysUrlSchema = z
  .string()
  .refine(
    (value) =>
      URL.canParse(value) &&
      /^https?:$/.test(new URL(value).protocol) &&
      new URL(value).pathname !== '/' &&
      new URL(value).search === '' &&
      new URL(value).hash === '',
  )
  .transform((value) => new URL(value).href);

const policyNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a lowercase name such as "anonymous"');

/** A directive's wording: it must say where llms.txt is. */
const directiveTextSchema = z
  .string()
  .min(1)
  .refine(
    (text) => text.includes(LLMS_TXT_PLACEHOLDER),
    `a text that names ${LLMS_TXT_PLACEHOLDER}, which becomes the address of llms.txt`,
  );

/**
 * The pointers to llms.txt (agent-directives.ts): `false` turns both off; each of `html` and
 * `markdown` may be worded or turned off on its own. Resolved to the wording each one has.
 */
const directivesSchema = z
  .union([
    z.literal(false),
    z
      .object({
        /** The visually hidden sentence at the top of every page's `<body>`. */
        html: z
          .union([
            z.literal(false),
            z
              .object({
                /** Said on every page. */
                index: directiveTextSchema.default(DEFAULT_DIRECTIVES.html.index),
                /** Added on a page that has a Markdown twin; `{markdown}` becomes the twin's path. */
                twin: z
                  .union([
                    z.literal(false),
                    z
                      .string()
                      .min(1)
                      .refine(
                        (text) => text.includes(TWIN_PLACEHOLDER),
                        `a text that names ${TWIN_PLACEHOLDER}, which becomes the path of the page's twin`,
                      ),
                  ])
                  .default(DEFAULT_DIRECTIVES.html.twin),
                /** The language of the wording (the element's `lang`), so that a screen reader reads it in that language. */
                lang: languageSchema.default(DEFAULT_DIRECTIVES.html.lang),
              })
              .strict(),
          ])
          .prefault({}),
        /** The blockquote at the top of every Markdown twin; `{llmsFullTxt}` becomes the address of llms-full.txt. */
        markdown: z
          .union([z.literal(false), directiveTextSchema])
          .default(DEFAULT_DIRECTIVES.markdown),
      })
      .strict(),
  ])
  .prefault({})
  .transform((directives): DirectiveWording => directives || NO_DIRECTIVES);

const policySchema = (name: string, quota: number) =>
  z
    .object({
      /** Policy name in the RateLimit headers and in get_quota. */
      name: policyNameSchema.default(name),
      /** Requests per 60 s window. */
      quota: quotaSchema.default(quota),
    })
    .strict()
    .prefault({});

/**
 * Options of the astro-agent-api integration; `z.input` is what users write, `z.output` what code reads.
 * Each default is written once, on its leaf: an object option's `.prefault({})` parses `{}` through its
 * fields, so their defaults apply (zod's `.default` would return a copy written by hand).
 */
export const agentApiOptionsSchema = z
  .object({
    /**
     * Language of the site (BCP 47): the language of pages without an `<html lang>`, of the browser search
     * index and of the documents' default wording. Pages with an `<html lang>` keep their own language
     * for search stemming and stop words. Default: Astro's `i18n.defaultLocale`, else the most common
     * `<html lang>` of the built pages, else `en`.
     */
    language: languageSchema.optional(),
    /** The site's name in the documents and the MCP server's title. Default: `company.brand`, else the pages' `og:site_name` or home page `<title>`, else the site's host name. */
    name: z.string().min(1).max(100).optional(),
    /** Company facts served by get_company_info; URLs may be site paths. Without them, get_company_info is not offered. */
    company: companyInfoSchema.optional(),
    /**
     * Facets that search_pages filters by, each read from the pages' `<meta data-agent-facet="name" content="value">`:
     * a query parameter per facet (one value, or `all`), the page's value as a field of each result.
     */
    facets: z.record(facetNameSchema, facetSchema).default({}),
    /** Vocabulary the search adds to the language's stemming and stop words. */
    search: z
      .object({
        /**
         * Query word → words searched as alternatives of it: trade names, everyday and regional words,
         * other languages (`plumber: ['plumbing']`). Matched without case or accents.
         */
        synonyms: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
        /** Words dropped from queries, on top of the language's own stop words. */
        stopWords: z.array(z.string().min(1)).default([]),
        /** Words that describe the whole site rather than a page ("services"): dropped when a query has other words. */
        genericWords: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .prefault({}),
    /** Wording of the generated documents (llms.txt, agents.md, the MCP server card and prompt). */
    documents: z
      .object({
        /** What the site is, in a sentence or two. Default: the home page's meta description. */
        summary: z.string().min(1).optional(),
        /** Facts an agent must respect when it answers from the site, e.g. "Nothing is booked or paid online." */
        notes: z.array(z.string().min(1)).default([]),
        /** The example search shown in agents.md and the MCP prompt; default: a word of the site's own pages. */
        exampleSearch: z
          .object({
            query: z.string().min(2).max(200),
            facets: z.record(z.string(), z.string()).default({}),
          })
          .strict()
          .optional(),
        /** Name of the MCP prompt that answers a person's question from the site. */
        promptName: z
          .string()
          .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a lowercase name such as "answer_question"')
          .default('answer_question'),
        /** Rules the MCP prompt adds to its own, e.g. "Quote no price the pages do not give." */
        promptRules: z.array(z.string().min(1)).default([]),
        /** Page stating the API's versioning policy; default: the versioning section of /agents.md. */
        versioningPolicy: linkSchema.optional(),
        /** The site's page for developers; default: /agents.md. */
        developerPage: linkSchema.optional(),
      })
      .strict()
      .prefault({}),
    /** robots.txt: usage preferences for every crawler, and groups for named crawlers. */
    robots: z
      .object({
        /** What every crawler may do with the pages; default: search and AI input yes, AI training no. */
        usage: usageSchema.default({ search: true, aiInput: true, aiTrain: false }),
        /**
         * A group per named crawler (RFC 9309: a crawler that finds its own group ignores the `*` one):
         * `crawl: false` disallows the whole site to it; `usage` overrides the general preferences for it.
         */
        agents: z
          .record(
            productTokenSchema,
            z.object({ crawl: z.boolean().default(true), usage: usageSchema.default({}) }).strict(),
          )
          .default({}),
      })
      .strict()
      .prefault({}),
    /**
     * Pointers to llms.txt for agents that read a page: a visually hidden sentence at the top of each
     * page's `<body>` and a blockquote at the top of each Markdown twin. `false` turns both off.
     */
    directives: directivesSchema,
    /** CSS selector of the main content of a page: only this region becomes Markdown and is indexed. */
    contentSelector: z.string().min(1).default('[data-agent-content], main'),
    /** Extra selectors removed from the content, on top of nav, header, footer, aside, scripts and [data-agent-ignore]. */
    ignoreSelectors: z.array(z.string().min(1)).default([]),
    /** Pages whose HTML matches this selector are not content: no Markdown twin, not in the manifest or index. */
    excludeSelector: z.string().min(1).default('[data-agent-exclude]'),
    /** read_page cuts longer Markdown at a paragraph boundary and reports `truncated: true`. */
    truncateAt: z.number().int().min(1_000).max(10_000_000).default(60_000),
    /** Root path of the JSON API. */
    apiBasePath: pathSchema.default(DEFAULT_API_BASE_PATH),
    /**
     * Rate-limit policies: callers without a token (per address) and with one (per client). The quotas
     * can be overridden at start-up with AGENT_API_QUOTA_ANONYMOUS and AGENT_API_QUOTA_IDENTIFIED.
     */
    policies: z
      .object({
        anonymous: policySchema('anonymous', 60),
        identified: policySchema('identified', 600),
      })
      .strict()
      .refine(
        (policies) => policies.anonymous.name !== policies.identified.name,
        'the two policies need different names',
      )
      .prefault({}),
    /** How many proxy hops in front of the server to trust for X-Forwarded-For / Forwarded (0: use the socket address). */
    trustProxy: z.number().int().min(0).max(10).default(0),
    /**
     * An anonymous IPv6 client is its network of this many bits, for every per-client limit: a host owns
     * at least a /64, so its addresses share one quota; /56 or /48 count a whole site's allocation as one.
     */
    ipv6Prefix: z
      .union(
        IPV6_PREFIXES.map((bits) => z.literal(bits)),
        { error: `one of ${IPV6_PREFIXES.join(', ')} (bits of an IPv6 client's network)` },
      )
      .default(64),
    /**
     * Agents that sign their requests (Web Bot Auth, RFC 9421): a verified agent listed in `trusted` is
     * counted by its identity (the origin of its key directory, or the URL of the JWK Set or Client ID
     * Metadata Document its Signature-Agent names) under its own quota, instead of by the address it
     * calls from. A signature that is missing, bad, expired or replayed reads as anonymous.
     */
    signedAgents: z
      .object({
        /** The policy of a verified agent without an override of its own. */
        policy: policySchema('signed-agent', 600),
        /**
         * Agents by identity → an override of the policy's name or quota (`{}`: the policy as it is): an
         * origin for an agent whose keys are in its well-known directory, the URL of its JWK Set or
         * metadata document for one whose Signature-Agent names that (type `jwks_uri` or `cimd`). Their
         * keys are fetched even from a private address or over http.
         */
        trusted: z
          .record(
            z.string(),
            z.object({ name: policyNameSchema.optional(), quota: quotaSchema.optional() }).strict(),
          )
          .default({})
          .superRefine((trusted, context) => {
            for (const identity of Object.keys(trusted)) {
              if (
                !originSchema.safeParse(identity).success &&
                !agentKeysUrlSchema.safeParse(identity).success
              ) {
                context.addIssue({
                  code: 'custom',
                  path: [identity],
                  message:
                    'a key that is an origin such as "https://agent.example", or the URL of an agent\'s JWK Set or metadata document ("https://agent.example/jwks.json"; no query or fragment)',
                });
              }
            }
          })
          .transform((trusted) =>
            Object.fromEntries(
              Object.entries(trusted).map(([identity, override]) => [
                originSchema.safeParse(identity).data ?? agentKeysUrlSchema.parse(identity),
                override,
              ]),
            ),
          ),
        /**
         * A valid signature of an agent not in `trusted`: `anonymous` (default) counts it by its network
         * as if unsigned, since anyone can publish a key directory; `signed` gives it `policy`, keyed by its origin.
         */
        unlisted: z.enum(['anonymous', 'signed']).default('anonymous'),
      })
      .strict()
      .prefault({}),
    /**
     * Client ID Metadata Documents: an OAuth client whose `client_id` is the https URL of its metadata,
     * authenticating with `private_key_jwt`. `true`: a document on any public https host; `false`: none;
     * a list of origins: only documents at those (fetched even from a private address or over http).
     */
    clientMetadataDocuments: z.union([z.boolean(), z.array(originSchema).min(1)]).default(true),
    /**
     * Marks the API version this site serves as being withdrawn (docs/contract.md §7): every answer
     * then carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link: <documents.versioningPolicy>;
     * rel="deprecation"`, and openapi.json and agents.md say so. Absent: no version is being withdrawn.
     */
    deprecation: z
      .object({
        /** When the withdrawal was announced, e.g. `2027-01-15`. */
        announced: z.iso.date(),
        /** When the version stops answering: at least the versioning policy's notice (versioning.ts) after `announced`. */
        sunset: z.iso.date(),
      })
      .strict()
      .refine(
        ({ announced, sunset }) =>
          Date.parse(sunset) - Date.parse(announced) >= DEPRECATION_NOTICE_DAYS * 86_400_000,
        {
          message: `a \`sunset\` at least ${DEPRECATION_NOTICE_DAYS} days after \`announced\` (the versioning policy)`,
          path: ['sunset'],
        },
      )
      .optional(),
    /** Extra origins allowed to call POST /mcp from a browser, besides the site's own. */
    allowedOrigins: z
      .array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin))
      .default([]),
  })
  .strict()
  .refine(
    ({ policies, signedAgents }) =>
      ![policies.anonymous.name, policies.identified.name].includes(signedAgents.policy.name),
    {
      message: 'a name that `policies` does not already use: each policy needs its own',
      path: ['signedAgents', 'policy', 'name'],
    },
  );

export type AgentApiUserOptions = z.input<typeof agentApiOptionsSchema>;
export type AgentApiOptions = z.output<typeof agentApiOptionsSchema>;
export type FacetOptions = AgentApiOptions['facets'][string];
export type PolicyRole = keyof AgentApiOptions['policies'];
export type UsagePreferences = z.output<typeof usageSchema>;

/** Parses the options or throws an AstroError that names each bad option and what it allows, with what to do as its hint. */
export function parseAgentApiOptions(input: unknown): AgentApiOptions {
  const result = agentApiOptionsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length > 0 ? `\`${issue.path.join('.')}\`` : 'the options';
      return `- ${issue.keys.map((key) => `\`${key}\``).join(', ')}: not an option of ${where}`;
    }
    const name = issue.path.length > 0 ? issue.path.join('.') : '(options)';
    // A bad record key (a facet or crawler name) carries what the key must be in its own issue.
    const message =
      issue.code === 'invalid_key'
        ? `not a valid name: ${issue.issues.map((inner) => inner.message).join('; ')}`
        : issue.message;
    return `- \`${name}\`: ${message}`;
  });
  // The option names go in the hint: Astro replaces the hint of a message that contains "document"
  // (as the `documents` option does) with its own about browser APIs.
  throw new AstroError(
    `Invalid options for the astro-agent-api integration in astro.config.mjs:\n${problems.join('\n')}`,
    `Fix these options and build again. The options are ${Object.keys(agentApiOptionsSchema.shape).join(', ')}; the package README lists each one with its default.`,
  );
}

/** The options as the runtime and the documents read them: languages and name decided, company facts apart. */
export interface ResolvedAgentApiOptions
  extends Omit<AgentApiOptions, 'language' | 'name' | 'company'> {
  language: string;
  /** Every language of the pages (canonical BCP 47 tags), `language` first, then by number of pages. */
  languages: string[];
  name: string;
  /** Site path of the sitemap index when the site builds one (@astrojs/sitemap), else undefined. */
  sitemap?: string | undefined;
}

/** The site's language: the `language` option, else Astro's default locale, else the most common of the pages' languages, else English. */
export function decideSiteLanguage(
  chosen: string | undefined,
  defaultLocale: string | undefined,
  pageLanguages: readonly string[],
): string {
  return (
    canonicalLanguageTag(chosen ?? defaultLocale ?? '') ||
    mostCommon(pageLanguages.filter(Boolean)) ||
    'en'
  );
}

/**
 * Decides what the user left to the site: the language (else Astro's default locale, else the most
 * common `<html lang>` of the pages, else English), the languages of its pages (a page without one
 * has the site's) and the name (else the company's brand, else the name the pages give the site,
 * else its host name).
 */
export function resolveAgentApiOptions(
  options: AgentApiOptions,
  site: {
    url: string;
    pageLanguages: readonly string[];
    defaultLocale?: string | undefined;
    sitemap?: string | undefined;
    pagesSiteName?: string | undefined;
  },
): ResolvedAgentApiOptions {
  const { company: _company, language: chosen, name: _name, ...rest } = options;
  const language = decideSiteLanguage(chosen, site.defaultLocale, site.pageLanguages);
  const languages = rankByCount(
    site.pageLanguages.map((tag) => tag || language),
    language,
  );
  return {
    ...rest,
    language,
    languages: languages.length > 0 ? languages : [language],
    // The pages' own name for the site: build/read-site-name.ts (`og:site_name`, else the home page's `<title>`).
    name:
      options.name ?? options.company?.brand ?? site.pagesSiteName ?? new URL(site.url).hostname,
    ...(site.sitemap && { sitemap: site.sitemap }),
  };
}
