import type { JsonSchema } from './json-schema.ts';

/**
 * The values a JSON Schema property allows when they form a closed set (an enum, a const, or
 * alternatives of them), read the same way for the 400 hints and for agents.md's parameter tables.
 */
export function readAllowedValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as JsonSchema[]).flatMap((option) => readAllowedValues(option) ?? []);
  return undefined;
}

/** `one of \`a\`, \`b\``: the allowed values as the hints and the documents write them. */
export function formatAllowedValues(values: readonly unknown[]): string {
  return `one of ${values.map((value) => `\`${String(value)}\``).join(', ')}`;
}
