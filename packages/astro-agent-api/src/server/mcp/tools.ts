import type { CallToolResult, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { MCP_TOOL_ANNOTATIONS } from '../../mcp-contract.ts';
import { buildInputJsonSchema, buildOutputJsonSchema, type ObjectJsonSchema } from '../../operations/json-schema.ts';
import type { Operation } from '../../operations/operation.ts';
import { asApiError, type ErrorLogger } from '../respond.ts';
import { buildToolErrorResult } from './tool-error.ts';

/** Runs an operation for the caller of this request; resolves with the REST body as UTF-8, throws ApiError. */
export type CallOperation = (op: Operation, rawArgs: Record<string, unknown>) => Promise<{ bytes: Uint8Array }>;

type ToolArguments = Record<string, unknown>;

/** What a tool call produced: the REST body of a success, or the MCP tool error to answer with. */
export type ToolOutcome = { body: string; error?: undefined } | { body?: undefined; error: CallToolResult };

/**
 * Runs one tool: the operation for this request's caller, or its failure as an MCP tool error. The
 * one implementation behind both the SDK-registered tools and the route's direct tools/call answer.
 */
export async function runTool(op: Operation, args: ToolArguments, callOperation: CallOperation, log: ErrorLogger): Promise<ToolOutcome> {
  try {
    const { bytes } = await callOperation(op, args);
    return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  } catch (error) {
    return { error: buildToolError(error, log) };
  }
}

/**
 * Registers one tool per operation, described exactly as openapi.json and the server card describe
 * it: same name, title, bilingual description and JSON Schemas. A result carries the REST body twice:
 * parsed as `structuredContent` and verbatim as a text block for clients that only read text.
 */
export function registerOperationTools(server: McpServer, operations: readonly Operation[], callOperation: CallOperation, log: ErrorLogger): void {
  for (const op of operations) {
    const schemas = buildToolSchemas(op);
    server.registerTool(
      op.name,
      {
        title: op.title,
        description: op.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: { title: op.title, ...MCP_TOOL_ANNOTATIONS },
      },
      async (args): Promise<CallToolResult> => {
        const outcome = await runTool(op, args, callOperation, log);
        if (outcome.error) return outcome.error;
        return { content: [{ type: 'text', text: outcome.body }], structuredContent: JSON.parse(outcome.body) as Record<string, unknown> };
      },
    );
  }
}

const schemaCache = new WeakMap<Operation, { input: StandardSchemaWithJSON<ToolArguments>; output: StandardSchemaWithJSON<ToolArguments> }>();

/**
 * The tool's schemas as the SDK wants them (Standard Schema with a JSON Schema face), built from the
 * one translation openapi.json uses. They accept any value on purpose: arguments are validated by the
 * tool itself with the REST validator (parseOperationInput), so a bad argument becomes a tool error
 * with the REST `code` and a `hint` naming the parameter, not the SDK's bare message.
 */
function buildToolSchemas(op: Operation) {
  let schemas = schemaCache.get(op);
  if (!schemas) {
    schemas = { input: describeOnly(buildInputJsonSchema(op)), output: describeOnly(buildOutputJsonSchema(op)) };
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
