import type { Element } from './parse-html.ts';

/**
 * Starlight's aside variants (`:::note`, `:::tip`, `:::caution`, `:::danger`) as the GitHub alert
 * types (docs.github.com, "Basic writing and formatting syntax", Alerts) that mean the same: a caution
 * is GitHub's yellow WARNING, a danger its red CAUTION. The alert itself is written in markdown-tree.ts.
 */
const ALERT_TYPES: Record<string, { type: string; label: string }> = {
  note: { type: 'NOTE', label: 'Note' },
  tip: { type: 'TIP', label: 'Tip' },
  caution: { type: 'WARNING', label: 'Caution' },
  danger: { type: 'CAUTION', label: 'Danger' },
};

const VARIANT_CLASS = 'starlight-aside--';

/** A Starlight aside (`<aside class="starlight-aside starlight-aside--note">`): content, unlike other asides (sidebars, notices). */
export function isAlertAside(element: Element): boolean {
  return alertVariant(element) !== undefined;
}

/** The GitHub alert type and Starlight's default title of a Starlight aside; `undefined` for any other element. */
export function alertVariant(element: Element): { type: string; label: string } | undefined {
  const list = element.attribs.class;
  if (element.name !== 'aside' || list === undefined) return undefined;
  for (const name of list.split(/[\t\n\f\r ]+/))
    if (name.startsWith(VARIANT_CLASS)) return ALERT_TYPES[name.slice(VARIANT_CLASS.length)];
  return undefined;
}
