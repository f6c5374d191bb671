import { request } from 'node:http';

let next = 0;

/**
 * A fetch whose connections come from a chosen loopback address (anything in 127.0.0.0/8 reaches a
 * server on 127.0.0.1). The server sees it as the client address, so each test gets its own anonymous
 * rate-limit window and its own registration limit. Bodies: string or URLSearchParams.
 */
export function fetchFrom(
  localAddress = nextLoopbackAddress(),
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return (input, init = {}) =>
    new Promise((resolve, reject) => {
      const headers = new Headers(init.headers);
      let body: string | undefined;
      if (typeof init.body === 'string') body = init.body;
      else if (init.body instanceof URLSearchParams) {
        body = init.body.toString();
        if (!headers.has('content-type'))
          headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
      } else if (init.body != null)
        throw new TypeError('fetchFrom sends only string or URLSearchParams bodies');
      const outgoing = request(
        new URL(input),
        {
          method: init.method ?? 'GET',
          headers: Object.fromEntries(headers),
          localAddress,
          signal: init.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const responseHeaders = new Headers();
            for (let i = 0; i < res.rawHeaders.length; i += 2)
              responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
            const status = res.statusCode ?? 0;
            const empty = init.method === 'HEAD' || [204, 304].includes(status);
            resolve(
              new Response(empty ? null : Buffer.concat(chunks), {
                status,
                headers: responseHeaders,
              }),
            );
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}

/** A loopback address no other caller in this process got (127.1.0.1, 127.1.0.2, …). */
export function nextLoopbackAddress(): string {
  next += 1;
  return `127.1.${Math.floor(next / 250)}.${(next % 250) + 1}`;
}
