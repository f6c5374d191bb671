import { z } from 'zod';

/** docs/contract.md §2 — Error. */
export const errorSchema = z
  .object({
    code: z.string().describe('Stable identifier of the error, e.g. `invalid_parameter`.'),
    message: z.string().describe('Readable description of what went wrong.'),
    data: z
      .object({
        status: z.number().int().describe('HTTP status of the response.'),
        hint: z.string().optional().describe('What to do to fix it; names the parameter at fault.'),
      })
      .optional(),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.output<typeof errorSchema>;

/**
 * The one error type of the runtime: a stable `code`, an HTTP `status`, a readable message and a
 * `hint` saying how to fix the request — required, so that no error reaches a client without one.
 * `renderError` (server/respond.ts) turns it into the Error shape of docs/contract.md §2.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { hint: string; headers?: Record<string, string>; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.hint = options.hint;
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      data: { status: this.status, hint: this.hint },
    };
  }
}
