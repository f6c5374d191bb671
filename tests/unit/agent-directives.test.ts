import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  buildHtmlDirective,
  buildMarkdownDirective,
  DIRECTIVE_CSS,
  DIRECTIVE_STYLE_HASH,
  insertHtmlDirective,
  insertHtmlDirectiveInStream,
  patchContentSecurityPolicy,
} from '../../packages/astro-agent-api/src/contract/agent-directives.ts';
import { addPageMarkup } from '../../packages/astro-agent-api/src/build/page-markup.ts';
import { parseAgentApiOptions } from '../../packages/astro-agent-api/src/options.ts';

const defaults = parseAgentApiOptions({}).directives;
const page =
  '<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Soil</title></head><body class="theme"><header>Menu</header><main><h1>Soil</h1></main></body></html>';
const element = buildHtmlDirective(defaults, '/llms.txt', '/guides/soil.md')!;

describe('the HTML directive', () => {
  it("says where llms.txt and the page's twin are, in English, marked so that no twin, index or parity check takes it", () => {
    assert.equal(
      element,
      '<aside data-agent-directive aria-label="llms.txt" data-agent-ignore data-pagefind-ignore="all" data-markdown-ignore lang="en">For AI agents: /llms.txt lists the pages of this site as Markdown. This page as Markdown: /guides/soil.md.</aside>',
    );
    // The visually hidden pattern, never display:none; each declaration wins over a theme's.
    assert.match(
      DIRECTIVE_CSS,
      /^\[data-agent-directive\]\{display:block!important;position:absolute!important;.*clip-path:inset\(50%\)!important;white-space:nowrap!important\}$/,
    );
    assert.doesNotMatch(DIRECTIVE_CSS, /display:none/);
    assert.equal(
      DIRECTIVE_STYLE_HASH,
      `'sha256-${createHash('sha256').update(DIRECTIVE_CSS).digest('base64')}'`,
    );
  });

  it('goes first in <body>, its style last in <head>, once, and after a <head> whose script writes "<body>"', () => {
    const inserted = insertHtmlDirective(page, element)!;
    assert.ok(
      inserted.includes(
        `<title>Soil</title><style>${DIRECTIVE_CSS}</style></head><body class="theme">${element}<header>`,
      ),
    );
    assert.equal(insertHtmlDirective(inserted, element), undefined);
    const scripted = page.replace('</head>', '<script>document.write("<body>")</script></head>');
    assert.ok(insertHtmlDirective(scripted, element)!.includes(`<body class="theme">${element}`));
    assert.equal(insertHtmlDirective('<p>a fragment</p>', element), undefined);
    // A page without `</head>` gets the style just before the element.
    assert.equal(
      insertHtmlDirective('<title>x</title><body><p>x</p></body>', element),
      `<title>x</title><body><style>${DIRECTIVE_CSS}</style>${element}<p>x</p></body>`,
    );
  });

  it('is worded by the option, without the twin sentence where the page has no twin, and escaped', () => {
    const options = parseAgentApiOptions({
      directives: {
        html: { index: 'Agentes: índice en {llmsTxt} <aquí>.', twin: false, lang: 'es' },
      },
    }).directives;
    assert.equal(
      buildHtmlDirective(options, '/docs/llms.txt', '/docs/x.md')!.replace(/^<aside[^>]*>/, ''),
      'Agentes: índice en /docs/llms.txt &lt;aquí&gt;.</aside>',
    );
    assert.match(buildHtmlDirective(options, '/llms.txt', undefined)!, /lang="es"/);
    assert.doesNotMatch(
      buildHtmlDirective(defaults, '/llms.txt', undefined)!,
      /This page as Markdown/,
    );
    assert.equal(
      buildHtmlDirective(
        parseAgentApiOptions({ directives: { html: false } }).directives,
        '/llms.txt',
        '/x.md',
      ),
      undefined,
    );
    assert.equal(
      buildHtmlDirective(
        parseAgentApiOptions({ directives: false }).directives,
        '/llms.txt',
        '/x.md',
      ),
      undefined,
    );
  });

  it('refuses a wording that does not say where llms.txt is', () => {
    assert.throws(
      () => parseAgentApiOptions({ directives: { markdown: 'See the index.' } }),
      /directives\.markdown`: a text that names \{llmsTxt\}/,
    );
    assert.throws(
      () => parseAgentApiOptions({ directives: { html: { twin: 'Markdown here.' } } }),
      /directives\.html\.twin`: a text that names \{markdown\}/,
    );
  });

  it('comes with the twin link when the build marks a page, and neither twice', () => {
    const marked = addPageMarkup(page, '/guides/soil.md', element)!;
    assert.ok(
      marked.includes(
        `<link rel="alternate" type="text/markdown" href="/guides/soil.md"><style>${DIRECTIVE_CSS}</style></head>`,
      ),
    );
    assert.ok(marked.includes(`<body class="theme">${element}`));
    assert.equal(addPageMarkup(marked, '/guides/soil.md', element), undefined);
    assert.equal(
      addPageMarkup(page, '/guides/soil.md', undefined),
      page.replace(
        '</head>',
        '<link rel="alternate" type="text/markdown" href="/guides/soil.md"></head>',
      ),
    );
  });
});

describe('a page rendered on demand', () => {
  it('gets the directive as it streams, whatever its chunks cut (a tag, a character), and the rest as it comes', async () => {
    const bytes = new TextEncoder().encode(page.replace('Soil</h1>', 'Suelo fértil 🌱</h1>'));
    const expected = insertHtmlDirective(new TextDecoder().decode(bytes), element);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const edges = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              for (let i = 1; i < edges.length; i++)
                controller.enqueue(bytes.slice(edges[i - 1], edges[i]));
              controller.close();
            },
          });
          assert.equal(
            await new Response(insertHtmlDirectiveInStream(body, element)).text(),
            expected,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is passed through as it is when it has no <body>', async () => {
    const fragment = '<p>a fragment</p>';
    assert.equal(
      await new Response(insertHtmlDirectiveInStream(new Response(fragment).body!, element)).text(),
      fragment,
    );
  });
});

describe("a page's Content-Security-Policy", () => {
  it("lets the directive's style in where Astro's policy would refuse it, and changes nothing else", () => {
    const policy =
      "default-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self' 'sha256-def='";
    assert.equal(
      patchContentSecurityPolicy(policy),
      `${policy}; style-src-elem 'self' 'sha256-def=' ${DIRECTIVE_STYLE_HASH}`,
    );
    // Without style-src, default-src decides; with style-src-elem, it is the one changed.
    assert.equal(
      patchContentSecurityPolicy("default-src 'none'"),
      `default-src 'none'; style-src-elem ${DIRECTIVE_STYLE_HASH}`,
    );
    assert.equal(
      patchContentSecurityPolicy("style-src-elem 'none'; style-src 'self'"),
      `style-src-elem ${DIRECTIVE_STYLE_HASH}; style-src 'self'`,
    );
  });

  it('is left alone where inline styles are allowed, or where there is no policy for styles', () => {
    for (const policy of ["style-src 'self' 'unsafe-inline'", "script-src 'self'", 'img-src data:'])
      assert.equal(patchContentSecurityPolicy(policy), policy);
    // 'unsafe-inline' beside a hash or nonce is ignored by browsers (CSP Level 3): the hash is needed.
    assert.match(
      patchContentSecurityPolicy("style-src 'unsafe-inline' 'nonce-x'"),
      /style-src-elem 'unsafe-inline' 'nonce-x' 'sha256-/,
    );
    const patched = patchContentSecurityPolicy("style-src 'self'");
    assert.equal(patchContentSecurityPolicy(patched), patched);
  });

  it('is patched in every <meta> policy of the page, whatever its quotes and references', () => {
    const metas = page.replace(
      '<title>',
      `<meta http-equiv="content-security-policy" content="style-src 'self'"><meta content='style-src &#39;self&#39;' http-equiv='Content-Security-Policy'><title>`,
    );
    const inserted = insertHtmlDirective(metas, element)!;
    assert.ok(
      inserted.includes(
        `content="style-src 'self'; style-src-elem 'self' ${DIRECTIVE_STYLE_HASH}"`,
      ),
    );
    assert.ok(
      inserted.includes(
        `content='style-src &#39;self&#39;; style-src-elem &#39;self&#39; ${DIRECTIVE_STYLE_HASH.replaceAll("'", '&#39;')}'`,
      ),
    );
  });

  it('never loses a directive of any policy', () => {
    const source = fc.constantFrom(
      "'self'",
      "'none'",
      "'unsafe-inline'",
      "'sha256-q='",
      "'nonce-n'",
      'https://cdn.example',
      'data:',
    );
    const directive = fc.tuple(
      fc.constantFrom('default-src', 'style-src', 'style-src-elem', 'script-src', 'img-src'),
      fc.array(source, { maxLength: 3 }),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(directive, { selector: ([name]) => name, minLength: 1, maxLength: 4 }),
        (directives) => {
          const policy = directives
            .map(([name, sources]) => [name, ...sources].join(' '))
            .join('; ');
          const patched = patchContentSecurityPolicy(policy);
          for (const [name, sources] of directives) {
            const after = patched.split('; ').find((entry) => entry.split(' ')[0] === name)!;
            assert.ok(after, `${name} kept in ${patched}`);
            if (name !== 'style-src-elem') assert.equal(after, [name, ...sources].join(' '));
          }
        },
      ),
    );
  });
});

describe('the Markdown directive', () => {
  it('is a blockquote naming llms.txt and llms-full.txt by their URLs, then a blank line', () => {
    const targets = {
      llmsTxt: 'https://garden.example.com/llms.txt',
      llmsFullTxt: 'https://garden.example.com/llms-full.txt',
    };
    assert.equal(
      buildMarkdownDirective(defaults, targets),
      '> For AI agents: https://garden.example.com/llms.txt lists the pages of this site as Markdown; https://garden.example.com/llms-full.txt holds all of them in one file.\n\n',
    );
    const worded = parseAgentApiOptions({
      directives: { markdown: 'Índice: {llmsTxt}\n\nTodo: {llmsFullTxt}' },
    }).directives;
    assert.equal(
      buildMarkdownDirective(worded, targets),
      '> Índice: https://garden.example.com/llms.txt\n>\n> Todo: https://garden.example.com/llms-full.txt\n\n',
    );
    assert.equal(
      buildMarkdownDirective(
        parseAgentApiOptions({ directives: { markdown: false } }).directives,
        targets,
      ),
      '',
    );
  });
});
