import type { Parents, Text } from 'mdast';
import { defaultHandlers, type Info, type State, type Unsafe } from 'mdast-util-to-markdown';

/**
 * remark-stringify's `text` handler, with a shortcut for the text that needs no escape, which is most
 * of a page's prose. The default handler runs every "unsafe" pattern of the writer (about forty with
 * GFM), each checked against the construct stack and run as its own regular expression, on every text
 * node: mdast-util-to-markdown's `safe` was 23 % of a page's conversion (BENCHMARKS.md, "Converting a
 * page: the text handler"). Here the patterns in scope for the current stack are joined into one
 * expression, kept per stack; a text it does not match, with no backslash, comes out unchanged,
 * exactly as `safe` would give it. Any other text goes through the default handler.
 */
export function writeText(
  node: Text,
  parent: Parents | undefined,
  state: State,
  info: Info,
): string {
  const { value } = node;
  // A backslash may need one of its own (escapeBackslashes in `safe`), even one just after the text.
  if (
    !value.includes('\\') &&
    !info.after.includes('\\') &&
    !hasUnsafeCharacter(state, info.before, value, info.after)
  )
    return value;
  return defaultHandlers.text(node, parent, state, info);
}

/** Whether a pattern in scope could match a character of `value`, between the characters the writer puts before and after it. */
export function hasUnsafeCharacter(
  state: State,
  before: string,
  value: string,
  after: string,
): boolean {
  const around = `${before}${value}${after}`;
  for (const test of unsafeTestsOf(state)) {
    test.lastIndex = before.length;
    const match = test.exec(around);
    if (match && match.index < before.length + value.length) return true;
  }
  return false;
}

/** The tests of each writer's patterns (its `unsafe` list, the same for the writer's life), by construct stack. */
const testsByPatterns = new WeakMap<readonly Unsafe[], Map<string, RegExp[]>>();

/**
 * One expression (two when some patterns need the `u` flag) that matches at each character of the
 * text that a pattern in scope for the current stack could make unsafe: each pattern as
 * `compilePattern` in mdast-util-to-markdown writes it, its context turned into lookarounds so that a
 * match starts at the character itself, except that a pattern about the node before or after the text
 * (`beforeNode`, `afterNode`) matches its character anywhere. So it may match where `safe` escapes
 * nothing, never the other way round.
 */
function unsafeTestsOf(state: State): RegExp[] {
  let byStack = testsByPatterns.get(state.unsafe);
  if (!byStack) {
    byStack = new Map();
    testsByPatterns.set(state.unsafe, byStack);
  }
  const key = state.stack.join(' ');
  let tests = byStack.get(key);
  if (!tests) {
    const inScope = state.unsafe.filter((pattern) => isInScope(state.stack, pattern));
    tests = [false, true]
      .map((unicode) =>
        inScope.filter((pattern) => Boolean(pattern.unicode) === unicode).map(patternSource),
      )
      .flatMap((sources, unicode) =>
        sources.length === 0 ? [] : [new RegExp(sources.join('|'), unicode ? 'gu' : 'g')],
      );
    byStack.set(key, tests);
  }
  return tests;
}

function patternSource(pattern: Unsafe): string {
  const character = /[$()*+.?[\\\]^{|}]/.test(pattern.character)
    ? `\\${pattern.character}`
    : pattern.character;
  if (pattern.beforeNode || pattern.afterNode) return character;
  const before =
    (pattern.atBreak ? '[\\r\\n][\\t ]*' : '') + (pattern.before ? `(?:${pattern.before})` : '');
  return `${before ? `(?<=${before})` : ''}${character}${pattern.after ? `(?=${pattern.after})` : ''}`;
}

/** Whether a pattern applies inside the constructs of `stack` (as `patternInScope` of mdast-util-to-markdown, which it does not export). */
function isInScope(stack: readonly string[], pattern: Unsafe): boolean {
  return (
    listInScope(stack, pattern.inConstruct, true) &&
    !listInScope(stack, pattern.notInConstruct, false)
  );
}

function listInScope(
  stack: readonly string[],
  list: Unsafe['inConstruct'],
  none: boolean,
): boolean {
  const constructs = typeof list === 'string' ? [list] : list;
  return !constructs || constructs.length === 0
    ? none
    : constructs.some((construct) => stack.includes(construct));
}
