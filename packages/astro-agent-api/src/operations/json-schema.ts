import { z } from 'zod';
import type { ToolDescription } from './operation.ts';

/** A JSON Schema (draft 2020-12) object, as zod's `z.toJSONSchema` produces it. */
export type JsonSchema = { [key: string]: unknown };

/** An object schema: the shape MCP requires at the root of a tool's `inputSchema` and `outputSchema`. */
export interface ObjectJsonSchema extends JsonSchema {
  type: 'object';
  properties?: { [name: string]: JsonSchema };
  required?: string[];
}

/**
 * JSON Schema of a zod schema, the one translation used by openapi.json, the MCP card and the MCP
 * tools: named schemas (`.meta({ id })`) stay in `$defs` and the root may be a `$ref` to one of them.
 */
export function buildJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
  }) as JsonSchema;
  return normalizeJsonSchema(jsonSchema, io) as JsonSchema;
}

/** Input schema of an operation: the MCP tool `inputSchema`, split per property into OpenAPI query parameters. */
export function buildInputJsonSchema(operation: ToolDescription): ObjectJsonSchema {
  return assertObjectSchema(
    inlineRootDefinition(buildJsonSchema(operation.input, 'input')),
    operation.name,
  );
}

/** Output schema of an operation with its root inlined (MCP wants `type: "object"` there); nested named schemas stay in `$defs`. */
export function buildOutputJsonSchema(operation: ToolDescription): ObjectJsonSchema {
  return assertObjectSchema(
    inlineRootDefinition(buildJsonSchema(operation.output, 'output')),
    operation.name,
  );
}

/** A tool's MCP `outputSchema`: its output schema without its `textField`, which travels as the result's text (ToolDescription.textField). */
export function buildToolOutputJsonSchema(tool: ToolDescription): ObjectJsonSchema {
  const schema = buildOutputJsonSchema(tool);
  const field = tool.textField;
  if (field === undefined) return schema;
  const { [field]: _text, ...properties } = schema.properties ?? {};
  return {
    ...schema,
    properties,
    ...(schema.required && { required: schema.required.filter((name) => name !== field) }),
  };
}

function assertObjectSchema(schema: JsonSchema, name: string): ObjectJsonSchema {
  if (schema.type !== 'object')
    throw new Error(
      `The schema of operation ${name} must be a zod object, got ${String(schema.type)}.`,
    );
  return schema as ObjectJsonSchema;
}

/** `{ $ref: '#/$defs/X', $defs }` → the body of X at the root, unless X is referenced elsewhere (recursion). */
function inlineRootDefinition(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  const defs = schema.$defs as { [id: string]: JsonSchema } | undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/') || defs === undefined) return schema;
  const id = ref.slice('#/$defs/'.length);
  const { [id]: root, ...rest } = defs;
  if (root === undefined || JSON.stringify(rest).includes(`"${ref}"`)) return schema;
  return Object.keys(rest).length > 0 ? { ...root, $defs: rest } : { ...root };
}

/**
 * Makes zod's output easier on clients without changing what validates:
 * - drops the ±2^53 bounds zod writes on every `.int()`;
 * - merges an `anyOf` of string enums/consts into one `enum` (e.g. a facet's values plus its "no filter" value);
 * - on outputs, drops `additionalProperties: false`: v1 adds response fields without notice and
 *   clients must ignore the ones they do not know (docs/contract.md §7).
 */
function normalizeJsonSchema(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => normalizeJsonSchema(item, io));
  if (node === null || typeof node !== 'object') return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === 'minimum' || key === 'maximum') &&
      Math.abs(value as number) === Number.MAX_SAFE_INTEGER
    )
      continue;
    if (io === 'output' && key === 'additionalProperties' && value === false) continue;
    result[key] = normalizeJsonSchema(value, io);
  }
  return mergeStringAlternatives(result);
}

function mergeStringAlternatives(schema: JsonSchema): JsonSchema {
  const alternatives = schema.anyOf;
  if (!Array.isArray(alternatives)) return schema;
  const values: unknown[] = [];
  for (const alternative of alternatives as JsonSchema[]) {
    const keys = Object.keys(alternative).filter((key) => key !== 'type');
    if (alternative.type !== 'string' || keys.length !== 1) return schema;
    if (Array.isArray(alternative.enum)) values.push(...alternative.enum);
    else if (typeof alternative.const === 'string') values.push(alternative.const);
    else return schema;
  }
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...rest, type: 'string', enum: [...new Set(values)] };
}
