import type { ErrorBody } from './company-info.ts';

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

  constructor(status: number, code: string, message: string, options: { hint: string; headers?: Record<string, string>; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.hint = options.hint;
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorBody {
    return { code: this.code, message: this.message, data: { status: this.status, hint: this.hint } };
  }
}
