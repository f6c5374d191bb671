import type { SiteQuestion } from '../helpers/agent-index.ts';

/**
 * Questions a reader of the AstroWind site (tests/fixtures/astrowind) would ask an agent, written as an
 * agent searches (a few words), each with the page that answers it.
 */
export const ASTROWIND_QUESTIONS: SiteQuestion[] = [
  { query: 'dark mode toggle', page: '/astrowind-template-in-depth' },
  { query: 'advanced slot usage', page: '/astrowind-template-in-depth' },
  { query: 'what is a landing page', page: '/landing' },
  { query: 'customize template to my brand', page: '/how-to-customize-astrowind-to-your-brand' },
  {
    query: 'get started with astro and tailwind',
    page: '/get-started-website-with-astro-tailwind-css',
  },
  {
    query: 'tools and resources to create a website',
    page: '/useful-resources-to-create-websites',
  },
  { query: 'markdown elements blockquote code', page: '/markdown-elements-demo-post' },
  { query: 'pricing plans per month', page: '/pricing' },
  { query: 'privacy policy personal data', page: '/privacy' },
  { query: 'terms and conditions', page: '/terms' },
  { query: 'contact us', page: '/contact' },
  { query: 'graphic designer portfolio', page: '/homes/personal' },
  { query: 'mobile app templates download', page: '/homes/mobile-app' },
  { query: 'lead generation landing page', page: '/landing/lead-generation' },
  { query: 'web design services', page: '/services' },
];
