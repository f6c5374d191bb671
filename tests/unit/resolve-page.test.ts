import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ManifestPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import { buildPageIndex, resolvePage } from '../../packages/astro-agent-api/src/content/resolve-page.ts';
import { createSiteUrls } from '../../packages/astro-agent-api/src/site-urls.ts';

const site = 'https://www.reparohogar.example';
const page = (path: string): ManifestPage => ({ url: new URL(path, site).href, path, title: path, language: 'en', facets: {}, sections: [], twin: { file: 0, offset: 0, length: 0, frontMatterLength: 0, textLength: 0 } });
const index = buildPageIndex(
  [page('/'), page('/servicios/fontaneria/'), page('/servicios/fontaneria/madrid/'), page('/ciudades/madrid/'), page('/urgencias/')],
  createSiteUrls(site),
);
const resolve = (input: string) => resolvePage(index, input)?.path;

describe('read_page URL resolution', () => {
  it('accepts full addresses of the site in any scheme and www variant', () => {
    assert.equal(resolve('https://www.reparohogar.example/servicios/fontaneria/madrid/'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('http://reparohogar.example/servicios/fontaneria/madrid'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('HTTPS://WWW.REPAROHOGAR.EXAMPLE/urgencias/?utm=x#top'), '/urgencias/');
    assert.equal(resolve('https://www.reparohogar.example'), '/');
  });

  it('accepts paths, twins and slugs', () => {
    assert.equal(resolve('/servicios/fontaneria/madrid/'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('/servicios/fontaneria/madrid'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('/servicios/fontaneria/madrid.md'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('fontaneria/madrid'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('urgencias'), '/urgencias/');
    assert.equal(resolve('/'), '/');
  });

  it('resolves a last segment only when it names exactly one page', () => {
    assert.equal(resolve('fontaneria'), '/servicios/fontaneria/');
    assert.equal(resolve('madrid'), undefined, 'madrid is the last segment of two pages');
  });

  it('resolves a slug of several trailing segments, whatever the site\'s folders are called', () => {
    const blog = buildPageIndex([page('/'), page('/blog/'), page('/blog/first-post/'), page('/notes/2024/first-post/'), page('/about/')], createSiteUrls(site));
    const find = (input: string) => resolvePage(blog, input)?.path;
    assert.equal(find('about'), '/about/');
    assert.equal(find('blog'), '/blog/');
    assert.equal(find('blog/first-post'), '/blog/first-post/');
    assert.equal(find('2024/first-post/'), '/notes/2024/first-post/');
    assert.equal(find('first-post.md'), undefined, 'first-post ends two pages');
    assert.equal(find('first-post'), undefined, 'first-post ends two pages');
    assert.equal(find('/first-post/'), undefined, 'a path names its page exactly');
    assert.equal(find('https://www.reparohogar.example/first-post/'), undefined, 'so does a full address');
    assert.equal(find('post'), undefined, 'a slug is whole segments');
  });

  it('refuses other hosts, other schemes and traversal', () => {
    assert.equal(resolve('https://evil.example/servicios/fontaneria/'), undefined);
    assert.equal(resolve('https://reparohogar.example.evil.example/urgencias/'), undefined);
    assert.equal(resolve('file:///etc/passwd'), undefined);
    assert.equal(resolve('javascript:alert(1)'), undefined);
    assert.equal(resolve('//evil.example/urgencias/'), undefined);
    assert.equal(resolve('/servicios/../urgencias/'), undefined);
    assert.equal(resolve('/servicios/%2e%2e/urgencias/'), undefined);
    assert.equal(resolve('/servicios/%252e%252e/urgencias/'), undefined);
    assert.equal(resolve('..%2f..%2fetc%2fpasswd'), undefined);
    assert.equal(resolve('/servicios\\fontaneria'), undefined);
    assert.equal(resolve('%E0%A4%A'), undefined);
    assert.equal(resolve('/no-existe/'), undefined);
  });
});
