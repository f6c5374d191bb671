import type { z } from 'zod';
import { formatAllowedValues, readAllowedValues } from '../operations/allowed-values.ts';
import { buildJsonSchema, type JsonSchema } from '../operations/json-schema.ts';

/**
 * One hint per parameter, derived from the operation's input schema (the same JSON Schema that
 * openapi.json publishes), so a 400 always says what the parameter accepts.
 */
export function buildParameterHints(input: z.ZodObject): Map<string, string> {
  const schema = buildJsonSchema(input, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const hints = new Map<string, string>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ?? false;
    hints.set(
      name,
      `\`${name}\` ${required ? 'is required and ' : ''}must be ${describe(property)}.`,
    );
  }
  return hints;
}

function describe(property: JsonSchema): string {
  const values = readAllowedValues(property);
  const defaults =
    property.default === undefined ? '' : ` (default \`${String(property.default)}\`)`;
  if (values) return `${formatAllowedValues(values)}${defaults}`;
  if (property.type === 'string') {
    return `a text of ${String(property.minLength ?? 0)} to ${String(property.maxLength ?? 'any number of')} characters${defaults}`;
  }
  if (property.type === 'integer' || property.type === 'number') {
    return `an integer from ${String(property.minimum ?? '-∞')} to ${String(property.maximum ?? '∞')}${defaults}`;
  }
  return `a valid value${defaults}`;
}
