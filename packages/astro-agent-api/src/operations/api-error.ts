import type { ErrorBody } from './schemas.ts';

/**
 * The one error type of the runtime: a stable `code`, an HTTP `status`, a readable message and an
 * optional `hint` saying how to fix the request. `renderError` turns it into the SPEC.md Error shape.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { hint?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.hint = options.hint;
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorBody {
    const data = this.hint === undefined ? { status: this.status } : { status: this.status, hint: this.hint };
    return { code: this.code, message: this.message, data };
  }
}
