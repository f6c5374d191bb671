/**
 * `astro-agent-api/schema-org`: typed builders (schema-dts types) for the schema.org JSON-LD graph a
 * site puts in its pages, and its safe serialization into `<script type="application/ld+json">`.
 * The site supplies the facts; these give the shapes and the `@id` links between pages.
 */
export { buildGraph, buildNodeId, idReference, serializeJsonLd } from './schema-org/graph.ts';
export {
  buildBreadcrumbList,
  buildFaqPage,
  buildPriceOffer,
  type BreadcrumbItem,
  type FaqItem,
  type PriceLine,
} from './schema-org/nodes.ts';
