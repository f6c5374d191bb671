import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addTwinLink } from '../../packages/astro-agent-api/src/build/page-markup.ts';
import { createSiteUrls } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

/** The served path of a page's twin on a site at the root (the page paths are decoded, as the files are named). */
const twinOf = (pagePath: string) =>
  createSiteUrls('https://garden.example.com/').twinPath(pagePath);

const html =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Soil</title></head><body><main><h1>Soil</h1></main></body></html>';

describe('the <link rel="alternate"> to a page\'s twin', () => {
  it("goes at the end of <head>, with the path of the twin of the page's public URL", () => {
    assert.equal(
      addTwinLink(html, twinOf('/guides/soil/')),
      html.replace(
        '</head>',
        '<link rel="alternate" type="text/markdown" href="/guides/soil.md"></head>',
      ),
    );
    assert.match(
      addTwinLink(html, twinOf('/'))!,
      /<link rel="alternate" type="text\/markdown" href="\/index\.md"><\/head>/,
    );
  });

  it('is added once: a page that already names a Markdown alternate is left as it is', () => {
    const linked = addTwinLink(html, twinOf('/guides/soil/'))!;
    assert.equal(addTwinLink(linked, twinOf('/guides/soil/')), undefined);
    // The site's layout may write its own, attributes in any order.
    const own = html.replace(
      '</head>',
      '<link type="text/markdown" rel="alternate" href="/soil.md"></head>',
    );
    assert.equal(addTwinLink(own, twinOf('/guides/soil/')), undefined);
  });

  it('reads only the head: a Markdown link in the body does not count', () => {
    const inBody = html.replace(
      '<h1>Soil</h1>',
      '<h1>Soil</h1><link rel="alternate" type="text/markdown" href="/x.md">',
    );
    assert.match(
      addTwinLink(inBody, twinOf('/guides/soil/'))!,
      /href="\/guides\/soil\.md"><\/head>/,
    );
  });

  it('escapes the path for the attribute and keeps non-ASCII paths percent-encoded', () => {
    assert.match(addTwinLink(html, twinOf('/q&a/'))!, /href="\/q&amp;a\.md"/);
    assert.match(addTwinLink(html, twinOf('/guías/riego/'))!, /href="\/gu%C3%ADas\/riego\.md"/);
  });

  it('leaves a page without <head> alone', () => {
    assert.equal(addTwinLink('<p>fragment</p>', twinOf('/fragment/')), undefined);
  });
});
