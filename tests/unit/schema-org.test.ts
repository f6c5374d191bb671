import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Offer, Service } from 'schema-dts';
import {
  buildBreadcrumbList,
  buildFaqPage,
  buildGraph,
  buildNodeId,
  buildPriceOffer,
  idReference,
  serializeJsonLd,
} from '../../packages/astro-agent-api/src/schema-org.ts';

const site = 'https://www.reparohogar.example/';

describe('serializeJsonLd', () => {
  it('writes no character that could end the script element or open a comment, and parses back to the same graph', () => {
    const graph = buildGraph([
      {
        '@type': 'Thing',
        '@id': buildNodeId(site, 'x'),
        name: '</script><script>alert(1)</script> <!-- & \u2028',
      },
    ]);
    const text = serializeJsonLd(graph);
    assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(text), graph);
  });
});

describe('buildGraph', () => {
  it('skips the nodes a page does not have and refuses one @id described twice', () => {
    const id = buildNodeId(site, 'organization');
    assert.equal(id, 'https://www.reparohogar.example/#organization');
    const graph = buildGraph([{ '@type': 'Organization', '@id': id, name: 'A' }, false, undefined]);
    assert.deepEqual(graph, {
      '@context': 'https://schema.org',
      '@graph': [{ '@type': 'Organization', '@id': id, name: 'A' }],
    });
    assert.throws(
      () =>
        buildGraph([
          { '@type': 'Organization', '@id': id },
          { '@type': 'Organization', '@id': id },
        ]),
      /two nodes with "@id": "https:\/\/www\.reparohogar\.example\/#organization"/,
    );
  });
});

describe('node builders', () => {
  it('numbers breadcrumb steps from 1', () => {
    const trail = buildBreadcrumbList({
      id: `${site}a/#breadcrumb`,
      items: [
        { name: 'Inicio', url: site },
        { name: 'A', url: `${site}a/` },
      ],
    }) as unknown as { itemListElement: { position: number; item: string }[] };
    assert.deepEqual(
      trail.itemListElement.map(({ position, item }) => [position, item]),
      [
        [1, site],
        [2, `${site}a/`],
      ],
    );
  });

  it('writes a FAQ block as Questions with accepted Answers, part of its page', () => {
    const faq = buildFaqPage({
      id: `${site}#faq`,
      pageId: `${site}#webpage`,
      questions: [{ question: '¿Hay garantía?', answer: 'Sí, 12 meses.' }],
    });
    assert.deepEqual(faq, {
      '@type': 'FAQPage',
      '@id': `${site}#faq`,
      isPartOf: { '@id': `${site}#webpage` },
      mainEntity: [
        {
          '@type': 'Question',
          name: '¿Hay garantía?',
          acceptedAnswer: { '@type': 'Answer', text: 'Sí, 12 meses.' },
        },
      ],
    });
  });

  it('writes "from" prices as minPrice, unit prices as UnitPriceSpecification, and states whether tax is included', () => {
    assert.deepEqual(
      buildPriceOffer({
        name: 'Pintar',
        amount: 7,
        currency: 'EUR',
        taxIncluded: false,
        from: true,
        unit: 'm²',
      }),
      {
        '@type': 'Offer',
        name: 'Pintar',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          priceCurrency: 'EUR',
          valueAddedTaxIncluded: false,
          minPrice: 7,
          unitText: 'm²',
        },
      },
    );
    assert.deepEqual(
      buildPriceOffer({
        name: 'Presupuesto',
        amount: 0,
        currency: 'EUR',
        taxIncluded: true,
        description: 'Gratis',
      }),
      {
        '@type': 'Offer',
        name: 'Presupuesto',
        description: 'Gratis',
        priceSpecification: {
          '@type': 'PriceSpecification',
          priceCurrency: 'EUR',
          valueAddedTaxIncluded: true,
          price: 0,
        },
      },
    );
  });
});

describe('schema-dts types (checked by `npm run typecheck`: an unused @ts-expect-error fails it)', () => {
  it('refuses a property that schema.org does not define for the type, and a wrong value type', () => {
    const service: Service = {
      '@type': 'Service',
      provider: idReference(`${site}#organization`),
      // @ts-expect-error — `price` is a property of Offer, not of Service.
      price: 10,
    };
    const offer: Offer = {
      '@type': 'Offer',
      // @ts-expect-error — `priceSpecification` takes a PriceSpecification, not a number.
      priceSpecification: 10,
    };
    assert.ok(service && offer);
  });
});
