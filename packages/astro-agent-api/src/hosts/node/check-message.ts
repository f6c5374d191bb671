import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../contract/api-error.ts';

/** RFC 9112 §3.2 with RFC 3986 §3.2.2–3.2.3: `uri-host [ ":" port ]`, no userinfo, path or spaces. */
const HOST =
  /^(?:\[[0-9A-Za-z:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

/**
 * What node:http lets through but no handler can answer, checked before any: a Host that is not a
 * host (the site builds its URL from it, and `127.0.0.1@evil.example` is a URL with credentials
 * that the Fetch API refuses), and a request body whose length cannot be known.
 */
export function checkMessage(req: IncomingMessage): ApiError | undefined {
  const host = req.headers.host;
  // RFC 9112 §3.2: a server MUST answer 400 to an invalid Host. URL.canParse also refuses what the
  // grammar allows but a URL cannot hold (`%zz`, a bad IPv6 literal).
  if (host !== undefined && (!HOST.test(host) || !URL.canParse(`http://${host}/`))) {
    return new ApiError(
      400,
      'invalid_host',
      'The Host header is not a host name with an optional port.',
      {
        hint: 'Send the host of the URL, such as "Host: example.com" or "Host: 127.0.0.1:4321", without a user name, path or spaces.',
      },
    );
  }
  // RFC 9112 §6.3 ¶4: with a Transfer-Encoding whose last coding is not chunked, a request's length
  // cannot be determined: 400, then close. Node would read such a body until the client hangs up.
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined && codings.split(',').at(-1)!.trim().toLowerCase() !== 'chunked') {
    return new ApiError(
      400,
      'invalid_framing',
      'The request body has a Transfer-Encoding whose last coding is not chunked.',
      {
        hint: 'Send the body with a Content-Length, or with "Transfer-Encoding: chunked" (RFC 9112 §6).',
        headers: { Connection: 'close' },
      },
    );
  }
  return undefined;
}
