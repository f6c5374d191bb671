/**
 * The attribute that marks the agent directive's element (agent-directives.ts), so that a page is never
 * given two and a reader of the page can leave it out of the page's text. A leaf that imports nothing:
 * the grader (packages/astro-agent-api-check) compiles it in, as it does paths.ts.
 */
export const DIRECTIVE_ATTRIBUTE = 'data-agent-directive';
