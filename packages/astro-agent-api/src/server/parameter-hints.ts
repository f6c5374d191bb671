import { z } from 'zod';

type PropertySchema = {
  type?: string;
  enum?: unknown[];
  anyOf?: PropertySchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  const?: unknown;
};

/**
 * One hint per parameter, derived from the operation's input schema (the same JSON Schema that
 * openapi.json publishes), so a 400 always says what the parameter accepts.
 */
export function buildParameterHints(input: z.ZodObject): Map<string, string> {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, PropertySchema>;
    required?: string[];
  };
  const hints = new Map<string, string>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ?? false;
    hints.set(name, `\`${name}\` ${required ? 'is required and ' : ''}must be ${describe(property)}.`);
  }
  return hints;
}

function describe(property: PropertySchema): string {
  const values = allowedValues(property);
  const defaults = property.default === undefined ? '' : ` (default \`${String(property.default)}\`)`;
  if (values) return `one of ${values.map((value) => `\`${String(value)}\``).join(', ')}${defaults}`;
  if (property.type === 'string') {
    return `a text of ${property.minLength ?? 0} to ${property.maxLength ?? 'any number of'} characters${defaults}`;
  }
  if (property.type === 'integer' || property.type === 'number') {
    return `an integer from ${property.minimum ?? '-∞'} to ${property.maximum ?? '∞'}${defaults}`;
  }
  return `a valid value${defaults}`;
}

function allowedValues(property: PropertySchema): unknown[] | undefined {
  if (property.enum) return property.enum;
  if (property.const !== undefined) return [property.const];
  if (property.anyOf) return property.anyOf.flatMap((option) => allowedValues(option) ?? []);
  return undefined;
}
