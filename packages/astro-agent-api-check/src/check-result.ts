import { CHECKS, type CheckId } from './check-catalog.ts';

/** pass and warn and skip exit 0; any fail exits 1. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** What one check found. */
export interface CheckOutcome {
  status: CheckStatus;
  /** One line: what was found, with counts. */
  message: string;
  /** The URLs or facts behind a fail or warn, one per line. */
  details?: string[];
}

export interface CheckResult extends CheckOutcome {
  id: CheckId;
  details: string[];
  durationMs: number;
}

/** The most lines of details a result keeps: enough to act on, short enough to read. */
const MAX_DETAILS = 20;

export const pass = (message: string): CheckOutcome => ({ status: 'pass', message });
export const skip = (message: string): CheckOutcome => ({ status: 'skip', message });

/** fail (or warn) with the lines that show why; more lines than shown are counted in the last one. */
export function fail(
  message: string,
  details: string[] = [],
  status: 'fail' | 'warn' = 'fail',
): CheckOutcome {
  return { status, message, details };
}

export function warn(message: string, details: string[] = []): CheckOutcome {
  return fail(message, details, 'warn');
}

/** A result as reported: details capped, the id's fix kept for what did not pass. */
export function buildResult(id: CheckId, outcome: CheckOutcome, durationMs: number): CheckResult {
  const details = outcome.details ?? [];
  const shown =
    details.length > MAX_DETAILS
      ? [...details.slice(0, MAX_DETAILS - 1), `… and ${details.length - MAX_DETAILS + 1} more`]
      : details;
  return {
    id,
    status: outcome.status,
    message: outcome.message,
    details: shown,
    durationMs: Math.round(durationMs),
  };
}

/** The fix of a result that did not pass, or undefined. */
export function fixOf(result: CheckResult): string | undefined {
  return result.status === 'fail' || result.status === 'warn' ? CHECKS[result.id].fix : undefined;
}
