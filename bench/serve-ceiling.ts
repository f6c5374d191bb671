/**
 * Child process of the harness: the ceiling. A bare node:http server answering one fixed JSON body
 * (a real answer of the site under test, so the bytes on the wire match) to every request. With a
 * content coding as second argument (br or gzip), the body is compressed once, at start, as the
 * runtime compresses its answers, and sent with that Content-Encoding: the client then decodes the
 * same bytes from both servers, and only the server's own work differs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  compressBody,
  type ContentCoding,
} from '../packages/astro-agent-api/src/server/content-coding.ts';

const json = Buffer.from(process.argv[2] ?? '{"ok":true}');
const coding = process.argv[3] as ContentCoding | undefined;
const body = coding ? compressBody(json, coding) : json;
const headers = {
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': body.byteLength,
  ...(coding ? { 'Content-Encoding': coding } : {}),
};
const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'stop') server.close(() => process.exit(0));
});
