import type {
  CallToolResult,
  McpServer,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { MCP_TOOL_ANNOTATIONS } from '../../contract/mcp-contract.ts';
import {
  buildInputJsonSchema,
  buildToolOutputJsonSchema,
  type ObjectJsonSchema,
} from '../../operations/json-schema.ts';
import type { Tool, ToolDescription } from '../../operations/operation.ts';
import { asApiError, type ErrorLogger } from '../respond.ts';
import { buildToolErrorResult } from './tool-error.ts';

/** Runs a tool's operation for the caller of this request; resolves with the REST body as UTF-8, throws ApiError. */
export type CallOperation = (
  op: Tool,
  rawArgs: Record<string, unknown>,
) => Promise<{ bytes: Uint8Array }>;

type ToolArguments = Record<string, unknown>;

/** What a tool call produced: the REST body of a success, or the MCP tool error to answer with. */
export type ToolOutcome =
  | { body: string; error?: undefined }
  | { body?: undefined; error: CallToolResult };

/**
 * Runs one tool: the operation for this request's caller, or its failure as an MCP tool error. The
 * one implementation behind both the SDK-registered tools and the route's direct tools/call answer.
 */
export async function runTool(
  op: Tool,
  args: ToolArguments,
  callOperation: CallOperation,
  log: ErrorLogger,
): Promise<ToolOutcome> {
  try {
    const { bytes } = await callOperation(op, args);
    return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  } catch (error) {
    return { error: buildToolError(error, log) };
  }
}

/**
 * What a tool result says, from the operation's answer (the REST body): `structured` (JSON) for
 * `structuredContent`, `text` for the text content. By default both are the answer, as MCP
 * 2025-06-18 asks (the JSON also in a text block, for clients that read only text). A tool with a
 * `textField` (read_page) sends that field once, as the text, and the other fields as the structured
 * content: LangChain's adapter and the inspector hand both to the model, and a page there cost twice
 * its tokens (BENCHMARKS.md, "What MCP clients hand their model"). The text starts with a front
 * matter of the other fields for the clients that read only text (most), short: without the fields
 * that say nothing (null, false, empty) or repeat another's value, a list of objects one a line.
 */
export function buildToolResultParts(
  tool: Pick<ToolDescription, 'textField'>,
  body: string,
): { text: string; structured: string } {
  const field = tool.textField;
  if (field === undefined) return { text: body, structured: body };
  const { [field]: text, ...fields } = JSON.parse(body) as Record<string, unknown>;
  return { text: `${buildFrontMatter(fields)}${String(text)}`, structured: JSON.stringify(fields) };
}

/**
 * YAML front matter whose values are written as JSON, which YAML 1.2 reads as it is: the yaml library
 * took more than ten times as long for the front matter alone, about as many characters, as the
 * whole projection takes this way, on every page read over MCP (bench/mcp-front-matter.ts,
 * BENCHMARKS.md "What MCP clients hand their model"). The field names are the operation's own.
 */
function buildFrontMatter(fields: Record<string, unknown>): string {
  const said = new Set<unknown>();
  const lines: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (
      value === null ||
      value === false ||
      (typeof value === 'object' && Object.keys(value).length === 0) ||
      (typeof value === 'string' && said.has(value))
    )
      continue;
    said.add(value);
    if (Array.isArray(value) && value.some((item) => item !== null && typeof item === 'object'))
      lines.push(`${name}:`, ...value.map((item) => `  - ${JSON.stringify(item)}`));
    else lines.push(`${name}: ${JSON.stringify(value)}`);
  }
  return `---\n${lines.join('\n')}\n---\n\n`;
}

/**
 * Registers one tool per tool description: the operations described exactly as openapi.json and the
 * server card describe them (same name, title, description and JSON Schemas), then ChatGPT's tools.
 */
export function registerTools(
  server: McpServer,
  tools: readonly Tool[],
  callOperation: CallOperation,
  log: ErrorLogger,
): void {
  for (const tool of tools) {
    const schemas = buildToolSchemas(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: { title: tool.title, ...MCP_TOOL_ANNOTATIONS },
      },
      async (args): Promise<CallToolResult> => {
        const outcome = await runTool(tool, args, callOperation, log);
        if (outcome.error) return outcome.error;
        const { text, structured } = buildToolResultParts(tool, outcome.body);
        return {
          content: [{ type: 'text', text }],
          structuredContent: JSON.parse(structured) as Record<string, unknown>,
        };
      },
    );
  }
}

const schemaCache = new WeakMap<
  Tool,
  { input: StandardSchemaWithJSON<ToolArguments>; output: StandardSchemaWithJSON<ToolArguments> }
>();

/**
 * The tool's schemas as the SDK wants them (Standard Schema with a JSON Schema face), built from the
 * one translation openapi.json uses. They accept any value on purpose: arguments are validated by the
 * tool itself with the REST validator (parseOperationInput), so a bad argument becomes a tool error
 * with the REST `code` and a `hint` naming the parameter, not the SDK's bare message.
 */
function buildToolSchemas(op: Tool) {
  let schemas = schemaCache.get(op);
  if (!schemas) {
    schemas = {
      input: describeOnly(buildInputJsonSchema(op)),
      output: describeOnly(buildToolOutputJsonSchema(op)),
    };
    schemaCache.set(op, schemas);
  }
  return schemas;
}

function describeOnly(jsonSchema: ObjectJsonSchema): StandardSchemaWithJSON<ToolArguments> {
  return {
    '~standard': {
      version: 1,
      vendor: 'agent-api',
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
      validate: (value) => ({ value: (value ?? {}) as ToolArguments }),
    },
  };
}

/** A failed call as an MCP tool error (tool-error.ts); unexpected errors are logged and reported as the generic internal error REST answers. */
export function buildToolError(error: unknown, log: ErrorLogger): CallToolResult {
  return buildToolErrorResult(asApiError(error, log));
}
