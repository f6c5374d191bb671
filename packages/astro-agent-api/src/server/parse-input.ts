import { ApiError } from '../contract/api-error.ts';
import type { Operation, Tool } from '../operations/operation.ts';
import { buildParameterHints } from './parameter-hints.ts';

const hintsByOperation = new WeakMap<Tool, Map<string, string>>();

/**
 * The validate step: raw arguments (REST query parameters or MCP tool arguments) through the
 * operation's zod schema; the first problem becomes a 400 whose hint names the parameter and what it
 * accepts. Unknown arguments are ignored. The arguments are copied onto an object without prototype
 * first, so that a parameter that was not sent reads as absent whatever its name (`constructor`,
 * `toString`) instead of as a property of Object.prototype.
 */
export function parseOperationInput(
  op: Tool,
  raw: Record<string, unknown>,
): Record<string, unknown> {
  const args = Object.assign(Object.create(null) as Record<string, unknown>, raw);
  const parsed = op.input.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? '');
  const missing = args[name] === undefined;
  let hints = hintsByOperation.get(op);
  if (!hints) {
    hints = buildParameterHints(op.input);
    hintsByOperation.set(op, hints);
  }
  throw new ApiError(
    400,
    missing ? 'missing_parameter' : 'invalid_parameter',
    missing
      ? `The parameter \`${name}\` is required.`
      : `The parameter \`${name}\` is not valid: ${issue.message}.`,
    {
      hint: hints.get(name) ?? `Check the parameter \`${name}\`.`,
    },
  );
}

/** REST: the first value of each parameter the operation knows; an empty value counts as absent. */
export function readQueryArguments(op: Operation, params: URLSearchParams): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(op.input.shape)) {
    const value = params.get(name);
    if (value !== null && value !== '') raw[name] = value;
  }
  return raw;
}
