import { formatAllowedValues, readAllowedValues } from '../operations/allowed-values.ts';
import type { JsonSchema, ObjectJsonSchema } from '../operations/json-schema.ts';

/** Markdown table of an operation's parameters, read from its input JSON Schema (types, limits, enums, defaults). */
export function buildParameterTable(schema: ObjectJsonSchema): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return 'No parameters.';
  const required = new Set(schema.required ?? []);
  const rows = entries.map(([name, property]) =>
    [
      `\`${name}\``,
      describeType(property),
      required.has(name) ? 'yes' : 'no',
      describeConstraints(property),
      escapeCell(typeof property.description === 'string' ? property.description : ''),
    ].join(' | '),
  );
  return [
    '| Parameter | Type | Required | Constraints | Description |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** Markdown list of the top-level fields of an output JSON Schema. */
export function buildFieldList(schema: ObjectJsonSchema): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, property]) => {
      const description =
        typeof property.description === 'string' ? `: ${property.description}` : '';
      return `- \`${name}\` (${describeType(property)}${required.has(name) ? '' : ', optional'})${description}`;
    })
    .join('\n');
}

function describeType(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'object';
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' or ');
  if (type === 'array') {
    const items = (schema.items ?? {}) as JsonSchema;
    return `array of ${describeType(items)}`;
  }
  if (typeof type === 'string') return type;
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as JsonSchema[]).map(describeType).join(' or ');
  if ('const' in schema) return JSON.stringify(schema.const);
  return 'any';
}

function describeConstraints(schema: JsonSchema): string {
  const parts: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === 'number' && typeof max === 'number') parts.push(`${min}..${max}${unit}`);
    else if (typeof min === 'number') parts.push(`≥ ${min}${unit}`);
    else if (typeof max === 'number') parts.push(`≤ ${max}${unit}`);
  };
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minimum, schema.maximum, '');
  const values = readAllowedValues(schema);
  if (values) parts.push(formatAllowedValues(values));
  if ('default' in schema) parts.push(`default \`${String(schema.default)}\``);
  return parts.join('; ');
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
