export interface WebLink {
  url: string;
  /** The relation types, lowercase (RFC 8288 §3.3: a space-separated list). */
  rel: string[];
  type: string | undefined;
}

/** RFC 8288 §3 — the links of a `Link` header: `<uri>; rel="a b"; type="…"`, comma-separated; quoted commas and semicolons kept. */
export function parseLinkHeader(value: string | null): WebLink[] {
  if (!value) return [];
  const links: WebLink[] = [];
  for (const match of value.matchAll(
    /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g,
  )) {
    const parameters = new Map<string, string>();
    for (const parameter of match[2]!.matchAll(
      /;\s*([^;,=\s]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*))?/g,
    )) {
      const name = parameter[1]!.toLowerCase();
      if (!parameters.has(name))
        parameters.set(name, (parameter[2] ?? '').replace(/^"|"$/g, '').replace(/\\(.)/g, '$1'));
    }
    links.push({
      url: match[1]!,
      rel: (parameters.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean),
      type: parameters.get('type')?.toLowerCase(),
    });
  }
  return links;
}
