/**
 * A button that shows only an icon, in the sentence that shows it, is read by its name (issue 37, item
 * 8: AstroWind's post says Dark Mode "is triggered by the little 'sunlight' icon:" and shows the theme
 * button, an icon named by `aria-label`; its share row names each network's button by `title`). A
 * button standing alone is the page's interface (a code block's copy button) and stays out; a button
 * with text of its own keeps its text. Names follow W3C accname 1.2's order for a button.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

function markdownOf(main: string): string {
  const page = buildMarkdownFromHtml(
    `<!doctype html><html lang="en"><head><title>T</title></head><body><main>${main}</main></body></html>`,
    { pageUrl: 'https://site.example/' },
  );
  assert.ok(page);
  return page.markdown;
}

const words = fc.stringMatching(/^[A-Z][a-z]{1,8}( [a-z]{1,8}){0,3}$/);
/** An icon as icon sets draw it: astro-icon's `<svg><use>`, a decorative one, an icon font's `<i>`. */
const icon = fc.constantFrom(
  '<svg class="icon" data-icon="tabler:sun"><use href="#ai:tabler:sun"></use></svg>',
  '<svg aria-hidden="true"><path d="M1 1"></path></svg>',
  '<i class="fa fa-sun" aria-hidden="true"></i>',
);
/** How a button that shows only an icon names itself (aria-labelledby: in the test of accname's order). */
const namedButton = fc
  .tuple(words, icon, fc.constantFrom('aria-label', 'title', 'svg title', 'role'))
  .map(([name, drawing, how]) => {
    switch (how) {
      case 'svg title':
        return {
          name,
          html: `<button type="button"><svg viewBox="0 0 24 24"><title>${name}</title><path d="M1 1"></path></svg></button>`,
        };
      case 'role':
        return {
          name,
          html: `<span role="button" tabindex="0" aria-label="${name}">${drawing}</span>`,
        };
      default:
        return { name, html: `<button type="button" ${how}="${name}">${drawing}</button>` };
    }
  });

describe('a button that shows only an icon', () => {
  it('is its name where it stands in a sentence, with or without white space around it (property)', () => {
    fc.assert(
      fc.property(
        words,
        namedButton,
        words,
        fc.constantFrom('', ' '),
        (before, button, after, space) => {
          assert.equal(
            markdownOf(`<p>${before}:${space}${button.html}${space}${after}.</p>`),
            `${before}: ${button.name} ${after}.\n`,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads AstroWind's theme button in its sentence, and its share row", () => {
    assert.equal(
      markdownOf(
        '<p><em>Dark Mode</em> is triggered by the little ‘sunlight’ icon:<button type="button" class="toggle-theme" aria-label="Toggle between Dark and Light mode" data-aw-toggle-color-scheme><svg width="1em" height="1em" viewBox="0 0 24 24" class="icon" data-icon="tabler:sun"><symbol id="ai:tabler:sun"><path d="M8 12a4 4 0 1 0 8 0"></path></symbol><use href="#ai:tabler:sun"></use></svg></button><script type="module" src="/_astro/ToggleTheme.js"></script>in the page header.</p>',
      ),
      '*Dark Mode* is triggered by the little ‘sunlight’ icon: Toggle between Dark and Light mode in the page header.\n',
    );
    const share = ['Twitter Share', 'Facebook Share', 'Email Share']
      .map(
        (title) =>
          `<button type="button" title="${title}"><svg class="icon"><use href="#x"></use></svg></button>`,
      )
      .join('');
    assert.equal(
      markdownOf(`<div class="social-share"><span class="label">Share:</span>${share}</div>`),
      'Share: Twitter Share Facebook Share Email Share\n',
    );
  });

  it('takes its name in accname order: aria-labelledby, aria-label, the icon it holds, its title', () => {
    const page = (button: string) =>
      markdownOf(`<p>Press ${button} now.</p><p hidden id="far">Far label</p>`);
    assert.equal(
      page(
        '<button aria-labelledby="far" aria-label="Label" title="Tip"><svg><title>Icon</title></svg></button>',
      ),
      'Press Far label now.\n\nFar label\n',
    );
    assert.equal(
      page('<button aria-label="Label" title="Tip"><svg><title>Icon</title></svg></button>'),
      'Press Label now.\n\nFar label\n',
    );
    assert.equal(
      page('<button title="Tip"><svg><title>Icon</title></svg></button>'),
      'Press Icon now.\n\nFar label\n',
    );
    assert.equal(page('<button title="Tip"><svg></svg></button>'), 'Press Tip now.\n\nFar label\n');
    assert.match(page('<button><svg></svg></button>'), /^Press +now\.\n/, 'no name: nothing said');
  });

  it('stays out where it stands alone: beside blocks or other buttons only (property)', () => {
    const alone = fc.constantFrom(
      (button: string) => `<p>Ready.</p>${button}`,
      (button: string) => `<div class="copy"><div aria-live="polite"></div>${button}</div>`,
      (button: string) => `<div class="toolbar">${button}${button}</div><p>Text.</p>`,
      (button: string) => `<div class="notice"><p>Saved.</p>${button}</div>`,
    );
    fc.assert(
      fc.property(namedButton, alone, (button, place) => {
        assert.doesNotMatch(markdownOf(place(button.html)), new RegExp(button.name), button.html);
      }),
      { numRuns: 200 },
    );
  });
});

describe('other buttons', () => {
  it('keep their own text, whatever their aria-label says', () => {
    assert.equal(
      markdownOf(
        '<p>Choose <button aria-label="Switch to yearly billing">Billed monthly</button> or yearly.</p>',
      ),
      'Choose Billed monthly or yearly.\n',
    );
  });

  it("leave out Expressive Code's copy button with its frame", () => {
    const frame =
      '<div class="expressive-code"><figure class="frame not-content"><figcaption class="header"></figcaption><pre data-language="js"><code><div class="ec-line"><div class="code">let a = 1;</div></div></code></pre><div class="copy"><div aria-live="polite"></div><button title="Copy to clipboard" data-copied="Copied!" data-code="let a = 1;"><div></div></button></div></figure></div>';
    assert.equal(
      markdownOf(`<p>Before.</p>${frame}<p>After.</p>`),
      'Before.\n\n```js\nlet a = 1;\n```\n\nAfter.\n',
    );
  });
});
