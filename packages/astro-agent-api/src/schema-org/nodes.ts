import type {
  BreadcrumbList,
  FAQPage,
  Offer,
  PriceSpecification,
  UnitPriceSpecification,
} from 'schema-dts';
import { idReference } from './graph.ts';

/** A step of a breadcrumb trail: the home page first, the page itself last. */
export interface BreadcrumbItem {
  name: string;
  url: string;
}

/** schema.org BreadcrumbList: one ListItem per step, numbered from 1. */
export function buildBreadcrumbList({
  id,
  items,
}: {
  id: string;
  items: readonly BreadcrumbItem[];
}): BreadcrumbList {
  return {
    '@type': 'BreadcrumbList',
    '@id': id,
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

/** A question a page answers, as the page shows it. */
export interface FaqItem {
  question: string;
  answer: string;
}

/** schema.org FAQPage for a block of questions, part of the page (`pageId`) that shows them. */
export function buildFaqPage({
  id,
  pageId,
  questions,
}: {
  id: string;
  pageId: string;
  questions: readonly FaqItem[];
}): FAQPage {
  return {
    '@type': 'FAQPage',
    '@id': id,
    isPartOf: idReference(pageId),
    mainEntity: questions.map(({ question, answer }) => ({
      '@type': 'Question',
      name: question,
      acceptedAnswer: { '@type': 'Answer', text: answer },
    })),
  };
}

/** One line of a price table. */
export interface PriceLine {
  /** What is sold, e.g. "Change a tap". */
  name: string;
  amount: number;
  /** ISO 4217 currency code, e.g. `EUR`. */
  currency: string;
  /** Whether `amount` includes VAT (or the local sales tax); schema.org `valueAddedTaxIncluded`. */
  taxIncluded: boolean;
  /** `amount` is the lowest price ("from 60 €"): written as `minPrice` instead of `price`. */
  from?: boolean;
  /** The unit priced, e.g. `hour` or `m²`: a UnitPriceSpecification with this `unitText`. */
  unit?: string;
  /** Free text about the price, e.g. which tax is added. */
  description?: string;
}

/** schema.org Offer for one price line, with its PriceSpecification (or UnitPriceSpecification for a unit price). */
export function buildPriceOffer(line: PriceLine): Offer {
  const amount = line.from ? { minPrice: line.amount } : { price: line.amount };
  const common = {
    priceCurrency: line.currency,
    valueAddedTaxIncluded: line.taxIncluded,
    ...amount,
  };
  const priceSpecification: PriceSpecification | UnitPriceSpecification = line.unit
    ? { '@type': 'UnitPriceSpecification', ...common, unitText: line.unit }
    : { '@type': 'PriceSpecification', ...common };
  return {
    '@type': 'Offer',
    name: line.name,
    ...(line.description && { description: line.description }),
    priceSpecification,
  };
}
