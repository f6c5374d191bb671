import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildMarkdownFromHtml,
  type HtmlToMarkdownOptions,
} from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

const pageUrl = 'https://reparaciones.example/servicios/fontaneria/madrid/';

/** A page in the site's shape: header with menu, main content, footer, cookie notice. */
function page(main: string, { head = '', mainAttributes = 'data-pagefind-body' } = {}): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Fontanería en Madrid | Reparaciones</title>${head}
<style>main { color: red }</style></head><body>
<header><a href="/">Reparaciones</a><nav><ul><li><a href="/servicios/">Menú de servicios</a></li></ul></nav></header>
<main ${mainAttributes}>${main}</main>
<footer><p>Pie: Reparaciones S.L., todos los derechos reservados</p></footer>
<div data-agent-ignore data-pagefind-ignore>Usamos cookies técnicas. <button>Aceptar cookies</button></div>
<script type="module">console.log('menu')</script>
</body></html>`;
}

function convert(html: string, options: Partial<HtmlToMarkdownOptions> = {}) {
  const result = buildMarkdownFromHtml(html, { pageUrl, ...options });
  assert.ok(result, 'the page should be content');
  return result;
}

describe('buildMarkdownFromHtml', () => {
  it('keeps headings as ATX headings', () => {
    const { markdown } = convert(
      page('<h1>Fontanería</h1><p>Texto.</p><h2>Precios</h2><h3>Visita</h3>'),
    );
    assert.match(markdown, /^# Fontanería\n\nTexto\.\n\n## Precios\n\n### Visita\n$/);
  });

  it('keeps nested lists nested', () => {
    const { markdown } = convert(
      page(
        '<ul><li>Fugas<ul><li>Bajo el fregadero</li><li>En la pared</li></ul></li><li>Atascos</li></ul><ol><li>Llamas</li><li>Vamos</li></ol>',
      ),
    );
    assert.match(markdown, /^- Fugas\n+ {2}- Bajo el fregadero\n {2}- En la pared\n+- Atascos$/m);
    assert.match(markdown, /^1\. Llamas\n2\. Vamos$/m);
  });

  it('turns a price table into a GFM table', () => {
    const { markdown } = convert(
      page(
        '<table><thead><tr><th>Trabajo</th><th>Precio</th></tr></thead><tbody><tr><td>Visita</td><td>35 €</td></tr><tr><td>Hora</td><td>40 €</td></tr></tbody></table>',
      ),
    );
    assert.match(
      markdown,
      /^\| Trabajo \| Precio \|\n\| --- \| --- \|\n\| Visita \| 35 € \|\n\| Hora \| 40 € \|$/m,
    );
  });

  it('makes links and images absolute, keeps fragments, leaves mailto: and tel: alone', () => {
    const { markdown } = convert(
      page(
        '<p><a href="/precios/">precios</a> <a href="../">fontanería</a> <a href="#faq">preguntas</a> ' +
          '<a href="/precios/#iva">IVA</a> <a href="mailto:hola@reparaciones.example">correo</a> <a href="tel:+34900000000">teléfono</a> ' +
          '<a href="https://otra.example/x">fuera</a></p><img src="img/grifo.png" alt="Grifo">',
      ),
    );
    assert.ok(markdown.includes('[precios](https://reparaciones.example/precios/)'));
    assert.ok(
      markdown.includes('[fontanería](https://reparaciones.example/servicios/fontaneria/)'),
    );
    assert.ok(
      markdown.includes(
        '[preguntas](https://reparaciones.example/servicios/fontaneria/madrid/#faq)',
      ),
    );
    assert.ok(markdown.includes('[IVA](https://reparaciones.example/precios/#iva)'));
    assert.ok(markdown.includes('[correo](mailto:hola@reparaciones.example)'));
    assert.ok(markdown.includes('[teléfono](tel:+34900000000)'));
    assert.ok(markdown.includes('[fuera](https://otra.example/x)'));
    assert.ok(
      markdown.includes(
        '![Grifo](https://reparaciones.example/servicios/fontaneria/madrid/img/grifo.png)',
      ),
    );
  });

  it('leaves out header, menu, footer, cookie notice, scripts and styles', () => {
    const { markdown } = convert(
      page(
        '<h1>Fontanería</h1><nav>Índice de la página</nav><aside>Lateral</aside><p>Contenido.</p><form><input name="q"></form><div data-agent-ignore>Oculto</div>',
      ),
    );
    assert.equal(markdown, '# Fontanería\n\nContenido.\n');
  });

  it('leaves out HTML comments, which a reader of the page never sees', () => {
    const { markdown } = convert(
      page(
        '<h1>Fontanería</h1><!-- nota del editor: revisar precios --><p>Reparamos <!-- antes: arreglamos --> fugas.</p><ul><li>Grifos</li><!-- falta: termos --></ul>',
      ),
    );
    assert.equal(markdown, '# Fontanería\n\nReparamos fugas.\n\n- Grifos\n');
  });

  it('removes the extra ignoreSelectors too', () => {
    const { markdown } = convert(page('<p>Contenido.</p><div class="promo">Oferta</div>'), {
      ignoreSelectors: ['.promo'],
    });
    assert.equal(markdown, 'Contenido.\n');
  });

  it('keeps Spanish characters as they are, without entities or escapes', () => {
    const { markdown } = convert(
      page(
        '<p>¿Una fuga en el baño? ¡Llámanos! Año, niño, pingüino, «A Coruña», Málaga &amp; Gijón — 45&nbsp;€.</p>',
      ),
    );
    assert.equal(
      markdown,
      '¿Una fuga en el baño? ¡Llámanos! Año, niño, pingüino, «A Coruña», Málaga & Gijón — 45\u00a0€.\n',
    );
  });

  it('keeps code as fenced blocks, with the language of Shiki blocks', () => {
    const { markdown } = convert(
      page(
        '<pre class="astro-code" data-language="sh"><code><span class="line">curl https://reparaciones.example/api/v1/quota</span></code></pre>',
      ),
    );
    assert.equal(markdown, '```sh\ncurl https://reparaciones.example/api/v1/quota\n```\n');
  });

  it('takes the title from the first h1, else from <title>', () => {
    assert.equal(
      convert(page('<h1>Fontanería en <em>Madrid</em></h1><h1>Otro</h1>')).title,
      'Fontanería en Madrid',
    );
    assert.equal(
      convert(page('<p>Sin encabezado.</p>')).title,
      'Fontanería en Madrid | Reparaciones',
    );
  });

  it('takes the facets from the data-agent-facet metas in <head>, none when there are none', () => {
    const head =
      '<meta data-agent-facet="city" content="a-coruna"><meta data-agent-facet="kind" content="guia">';
    assert.deepEqual(convert(page('<p>Texto.</p>', { head })).facets, {
      city: 'a-coruna',
      kind: 'guia',
    });
    assert.deepEqual(convert(page('<p>Texto.</p>')).facets, {});
  });

  it('skips pages marked as not content', () => {
    assert.equal(
      buildMarkdownFromHtml(page('<h1>Buscar</h1>', { mainAttributes: 'data-agent-exclude' }), {
        pageUrl,
      }),
      undefined,
    );
  });

  it('prefers [data-agent-content] over main, and honours a custom contentSelector', () => {
    const html = page(
      '<p>Intro de la plantilla.</p><article data-agent-content><p>El artículo.</p></article>',
    );
    assert.equal(convert(html).markdown, 'El artículo.\n');
    assert.equal(
      convert(html, { contentSelector: 'main' }).markdown,
      'Intro de la plantilla.\n\nEl artículo.\n',
    );
  });

  it('finds the content outside <main> as well (no shortcut when the selector could match elsewhere)', () => {
    const html = page('<p>Principal.</p>').replace(
      '<header>',
      '<section data-agent-content><p>Destacado.</p></section><header>',
    );
    assert.equal(convert(html).markdown, 'Destacado.\n');
    assert.equal(convert(html, { contentSelector: '.nada, main' }).markdown, 'Principal.\n');
  });
});
