/**
 * What verifying a Web Bot Auth signature costs a request (issue 30): the server's own verifier
 * (server/signed-agents/), over a real sqlite store and a key directory on a loopback port.
 * - cold: a verifier with an empty directory cache, so the first signed request fetches the directory;
 * - cached: every later request, each with a fresh signature (parse, RFC 9421 base, Ed25519, nonce claim);
 * - Ed25519 alone: crypto.subtle.verify of one signature base.
 * Signing is done before timing. Run: node bench/signed-agent-verification.ts [requests]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fetchOutboundOnNode } from '../packages/astro-agent-api/src/hosts/node/node-outbound-fetch.ts';
import { createDocumentCache } from '../packages/astro-agent-api/src/server/outbound/document-cache.ts';
import { readKeyDirectory } from '../packages/astro-agent-api/src/server/signed-agents/key-directory.ts';
import { createSignedAgentVerifier } from '../packages/astro-agent-api/src/server/signed-agents/verify-signed-agent.ts';
import { openSqliteStore } from '../packages/astro-agent-api/src/store/sqlite-store.ts';
import { startSigningAgent } from '../tests/helpers/signing-agent.ts';

const SITE = 'https://www.example.com';
const REQUESTS = Number(process.argv[2] ?? 2_000);
const COLD_RUNS = 30;

const root = await mkdtemp(join(tmpdir(), 'bench-wba-'));
const store = openSqliteStore(join(root, 'store.db'));
const agent = await startSigningAgent();
const verifierOf = () =>
  createSignedAgentVerifier({
    store,
    directories: createDocumentCache(fetchOutboundOnNode, readKeyDirectory),
    siteOrigin: SITE,
    options: {
      policy: { name: 'signed-agent', quota: 600 },
      trusted: { [agent.origin]: {} },
      unlisted: 'anonymous',
    },
  });
const signedRequest = async () =>
  new Request('http://localhost/api/v1/search_pages?query=x', {
    headers: await agent.sign(`${SITE}/api/v1/search_pages?query=x`),
  });

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  return `mean ${(mean * 1000).toFixed(0)} µs · p50 ${(at(0.5) * 1000).toFixed(0)} µs · p99 ${(at(0.99) * 1000).toFixed(0)} µs (${times.length} runs)`;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  const result = await work();
  if (
    result === undefined ||
    result === false ||
    (typeof result === 'object' && (result as { outcome?: string }).outcome !== 'verified')
  )
    throw new Error('a signature the benchmark made did not verify');
  return performance.now() - start;
}

try {
  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const request = await signedRequest();
    const verify = verifierOf();
    cold.push(await time(() => verify(request)));
  }
  const verify = verifierOf();
  await verify(await signedRequest());
  const requests = await Promise.all(Array.from({ length: REQUESTS }, signedRequest));
  const cached: number[] = [];
  for (const request of requests) cached.push(await time(() => verify(request)));

  const { privateKey, publicKey } = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const base = new TextEncoder().encode(
    '"@authority": www.example.com\n"signature-agent": "https://agent.example"\n"@signature-params": ("@authority" "signature-agent");created=1;keyid="k";tag="web-bot-auth"',
  );
  const signature = await crypto.subtle.sign('Ed25519', privateKey, base);
  const ed25519: number[] = [];
  for (let i = 0; i < REQUESTS; i++)
    ed25519.push(await time(() => crypto.subtle.verify('Ed25519', publicKey, signature, base)));

  console.log(
    `Web Bot Auth verification per request (Node ${process.version}, sqlite store, directory on loopback):`,
  );
  console.log(`  cold (directory fetched): ${summary(cold)}`);
  console.log(`  cached directory:         ${summary(cached)}`);
  console.log(`  Ed25519 verify alone:     ${summary(ed25519)}`);
} finally {
  await agent.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
}
