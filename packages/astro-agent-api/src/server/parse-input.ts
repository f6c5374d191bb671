import { ApiError } from '../operations/api-error.ts';
import type { Operation } from '../operations/operation.ts';
import { buildParameterHints } from './parameter-hints.ts';

const hintsByOperation = new WeakMap<Operation, Map<string, string>>();

/**
 * Validates raw arguments (REST query parameters or MCP tool arguments) with the operation's zod
 * schema; the first problem becomes a 400 whose hint names the parameter and what it accepts.
 * Unknown arguments are ignored.
 */
export function parseOperationInput(op: Operation, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = op.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? '');
  const missing = raw[name] === undefined;
  let hints = hintsByOperation.get(op);
  if (!hints) hintsByOperation.set(op, (hints = buildParameterHints(op.input)));
  throw new ApiError(
    400,
    missing ? 'missing_parameter' : 'invalid_parameter',
    missing ? `The parameter \`${name}\` is required.` : `The parameter \`${name}\` is not valid: ${issue.message}.`,
    { hint: hints.get(name) ?? `Check the parameter \`${name}\`.` },
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
