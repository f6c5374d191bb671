import type { CallerInfo, CallFacts } from './operation.ts';

/**
 * What one answered request was. The pipeline fills it as the request goes through its steps (the
 * route names the surface, the caller step the caller, each operation its call) and hands it, with
 * the status, to its listeners once the answer is known: the one point where traffic can be counted.
 */
export interface Outcome {
  /** Which part of the surface answered. */
  surface:
    | 'api'
    | 'mcp'
    | 'document'
    | 'markdown'
    | 'page'
    | 'oauth'
    | 'identity'
    | 'sandbox'
    | 'unknown';
  /** Canonical path of the request. */
  path: string;
  method: string;
  /** The `User-Agent` header as sent: which agent called. */
  userAgent: string | null;
  /** Set once the caller step ran: the client_id, or the client address for an anonymous caller. */
  caller?: CallerInfo;
  /** For the Markdown surface and an HTML page the site answered (`page`): canonical URL of the page. */
  page?: string;
  /** For MCP: canonical URLs of the pages read as resources (resources/read). */
  resources?: string[];
  /** The operations the request ran (one for REST; each tools/call for MCP) and what each declares of itself. */
  calls: OperationCall[];
  /** HTTP status of the answer (set last). */
  status: number;
}

export interface OperationCall extends CallFacts {
  operation: string;
  /** False when the call ended in an error (bad input, unknown page, quota). */
  ok: boolean;
}

/** Receives every outcome; must not throw nor block (count, then return). */
export type OutcomeListener = (outcome: Readonly<Outcome>) => void;

/** A listener that keeps what it hears (traffic counting): closed, so flushed, when the runtime stops. */
export interface OutcomeRecorder {
  record: OutcomeListener;
  close(): Promise<void>;
}

export function createOutcome(request: Request, path: string, method: string): Outcome {
  return {
    surface: 'unknown',
    path,
    method,
    userAgent: request.headers.get('user-agent'),
    calls: [],
    status: 0,
  };
}
