/** Child process of the harness: the production front (`npm start`'s startFront) on a free port. */
import { startServer } from 'astro-agent-api/node';

const outDir = process.argv[2]!;
const front = await startServer({ outDir, host: '127.0.0.1', port: 0, env: process.env });
process.send?.({ url: front.url });
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'stop') void front.close().then(() => process.exit(0));
});
