import type { Element } from 'hast';
import type { Handle } from 'hast-util-to-mdast';
import type { BlockContent, Blockquote, Html, Paragraph, PhrasingContent } from 'mdast';
import { collapseWhitespace } from './collapse-whitespace.ts';

/**
 * Starlight's aside variants (`:::note`, `:::tip`, `:::caution`, `:::danger`) as the GitHub alert
 * types (docs.github.com, "Basic writing and formatting syntax", Alerts) that mean the same: a caution
 * is GitHub's yellow WARNING, a danger its red CAUTION.
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

function alertVariant(element: Element): { type: string; label: string } | undefined {
  const { className } = element.properties;
  if (element.tagName !== 'aside' || !Array.isArray(className)) return undefined;
  for (const name of className) {
    const text = String(name);
    if (text.startsWith(VARIANT_CLASS)) return ALERT_TYPES[text.slice(VARIANT_CLASS.length)];
  }
  return undefined;
}

/**
 * A Starlight aside as a GitHub alert: `> [!NOTE]` on the first line, then its content. A title of
 * the author's own (`:::note[Cache location]`) follows as a bold line: GitHub alerts have no title of
 * their own. The aside's `aria-label` holds its title; the English default title is left out.
 */
export const asideHandler: Handle = (state, node) => {
  const variant = alertVariant(node);
  if (!variant) return state.toFlow(state.all(node));
  const content = node.children.find(
    (child): child is Element => child.type === 'element' && Array.isArray(child.properties.className) && child.properties.className.includes('starlight-aside__content'),
  );
  const blocks = state.toFlow(state.all(content ?? node)) as BlockContent[];
  const title = collapseWhitespace(typeof node.properties.ariaLabel === 'string' ? node.properties.ariaLabel : '');
  // `[!NOTE]` written as is: as text, remark-stringify would escape its bracket.
  const marker: Html = { type: 'html', value: `[!${variant.type}]` };
  const head: PhrasingContent[] = [marker];
  if (title !== '' && title.toLowerCase() !== variant.label.toLowerCase()) head.push({ type: 'text', value: '\n' }, { type: 'strong', children: [{ type: 'text', value: title }] });
  const first = blocks[0];
  // GitHub reads the alert's type on the first line only; the first paragraph goes on the next line.
  const opening: Paragraph =
    first?.type === 'paragraph' && head.length === 1 ? { type: 'paragraph', children: [...head, { type: 'text', value: '\n' }, ...first.children] } : { type: 'paragraph', children: head };
  const rest = opening.children.length > head.length ? blocks.slice(1) : blocks;
  const alert: Blockquote = { type: 'blockquote', children: [opening, ...rest] };
  state.patch(node, alert);
  return alert;
};
