import type { Graph, IdReference, Thing } from 'schema-dts';

/**
 * The `@id` of a node a page describes: the page's URL with a fragment naming the node
 * (`https://example.com/#organization`). Another page links to it with `idReference`, and a reader
 * that follows the URL finds the node in that page's graph.
 */
export function buildNodeId(pageUrl: string | URL, name: string): string {
  return new URL(`#${name}`, pageUrl).href;
}

/** `{ "@id": id }`: a link to a node defined in this graph or in the graph of the page its URL names. */
export function idReference(id: string): IdReference {
  return { '@id': id };
}

/**
 * One schema.org graph from a page's nodes (`false` and `undefined` are skipped, for nodes a page
 * may not have). Two nodes with the same `@id` are refused: they would be two descriptions of one thing.
 */
export function buildGraph(nodes: readonly (Thing | false | undefined)[]): Graph {
  const seen = new Set<string>();
  const graph: Thing[] = [];
  for (const node of nodes) {
    if (!node) continue;
    const id = typeof node === 'object' ? (node as { '@id'?: string })['@id'] : undefined;
    if (id !== undefined) {
      if (seen.has(id))
        throw new Error(
          `The JSON-LD graph has two nodes with "@id": "${id}": describe each thing once and link to it with idReference().`,
        );
      seen.add(id);
    }
    graph.push(node);
  }
  return { '@context': 'https://schema.org', '@graph': graph };
}

/** Characters that could end a `<script>` element or open an HTML comment inside it, or end a JavaScript string. */
const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * The graph as the text of a `<script type="application/ld+json">` element. `<`, `>`, `&`, U+2028
 * and U+2029 are written as JSON `\u` escapes, so no text in the data (`</script>`, `<!--`) can end
 * the element early (HTML §4.12.1.3); the JSON means the same.
 */
export function serializeJsonLd(graph: Graph): string {
  return JSON.stringify(graph).replace(
    SCRIPT_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
