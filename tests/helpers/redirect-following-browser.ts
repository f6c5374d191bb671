#!/usr/bin/env node
/**
 * The browser a connector opens for its user (`BROWSER` for xdg-open, as the `open` package runs it on
 * Linux), reduced to what this site's authorization needs: the authorization endpoint approves at once
 * and redirects to the client's loopback callback, so a browser only has to follow the redirects. It
 * exits 0 when the last page answered 2xx. Node honours HTTP_PROXY here with NODE_USE_ENV_PROXY=1.
 */
import { argv, exit } from 'node:process';

const [url] = argv.slice(2);
if (!url) {
  console.error('usage: redirect-following-browser <url>');
  exit(2);
}
const response = await fetch(url, { redirect: 'follow' });
await response.arrayBuffer();
exit(response.ok ? 0 : 1);
