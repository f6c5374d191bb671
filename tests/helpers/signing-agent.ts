import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { component, createSignature, webcrypto } from 'http-message-sig';
import { calculateJwkThumbprint } from 'jose';
import { generateNonce, signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';

/** How the agent's key directory answers: the tests make it slow, oversized or broken. */
export type DirectoryBehaviour =
  | { kind: 'keys'; cacheControl?: string }
  | { kind: 'oversized' }
  | { kind: 'slow'; afterMs: number }
  | { kind: 'dripping' }
  | { kind: 'redirect'; to: string }
  | { kind: 'private-key' }
  | { kind: 'status'; status: number };

export interface SigningAgent {
  /** `http://127.0.0.1:<port>`: what its Signature-Agent names and what a site lists to trust it. */
  origin: string;
  /** Requests its directory has served. */
  directoryFetches: number;
  /** TCP connections its server accepted, whatever came over them. */
  connections: number;
  behaviour: DirectoryBehaviour;
  /**
   * Signature headers for a request to `url` (the site's own URL: `@authority` is its host). `form`
   * picks the Signature-Agent: the legacy one string, signed with Cloudflare's web-bot-auth; or a
   * Dictionary member the signature covers by its key, signed with Cloudflare's http-message-sig
   * (web-bot-auth 0.1.3 signs a Dictionary member's whole field, not the member), naming the agent's
   * origin (`dictionary`), its JWK Set (`jwks_uri`: `<origin>/jwks.json`) or its Client ID Metadata
   * Document (`cimd`: `<origin>/client.json`, whose `jwks_uri` is that set).
   */
  sign(
    url: string,
    options?: {
      form?: 'string' | 'dictionary' | 'jwks_uri' | 'cimd';
      created?: Date;
      expires?: Date;
      key?: 'own' | 'stranger';
    },
  ): Promise<Record<string, string>>;
  /**
   * `count` signatures for `url`, each with its own nonce, valid for `lifetimeSeconds` from now, in the
   * string form: for load, faster than `sign` (Cloudflare's http-message-sig with the key imported once,
   * many signatures in flight at a time).
   */
  signMany(url: string, count: number, lifetimeSeconds: number): Promise<Record<string, string>[]>;
  close(): Promise<void>;
}

type PrivateJwk = JsonWebKey & { x: string; d: string };

const JWKS_PATH = '/jwks.json';
const CIMD_PATH = '/client.json';

async function generateEd25519Jwk(): Promise<PrivateJwk> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  return (await crypto.subtle.exportKey('jwk', pair.privateKey)) as PrivateJwk;
}

/**
 * An agent that signs its requests under Web Bot Auth, with its key directory
 * (`/.well-known/http-message-signatures-directory`) served on a loopback port. `origin` names it
 * otherwise than `http://127.0.0.1:<port>` (another name of the loopback address, https).
 */
export async function startSigningAgent(
  behaviour: DirectoryBehaviour = { kind: 'keys' },
  options: { origin?: (port: number) => string } = {},
): Promise<SigningAgent> {
  const own = await generateEd25519Jwk();
  const stranger = await generateEd25519Jwk();
  const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: own.x };
  const server: Server = createServer((req, res) => {
    // Draft -02's other places for keys: a JWK Set, and a Client ID Metadata Document that names one.
    if (req.url === JWKS_PATH)
      return void res
        .writeHead(200, { 'content-type': 'application/jwk-set+json' })
        .end(JSON.stringify({ keys: [publicJwk] }));
    if (req.url === CIMD_PATH)
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: `${origin}${CIMD_PATH}`,
          client_name: 'Signing agent',
          jwks_uri: `${origin}${JWKS_PATH}`,
        }),
      );
    if (req.url !== '/.well-known/http-message-signatures-directory')
      return void res.writeHead(404).end();
    agent.directoryFetches++;
    answer(agent.behaviour, res);
  });
  const directoryType = 'application/http-message-signatures-directory+json';
  function answer(current: DirectoryBehaviour, res: ServerResponse): void {
    switch (current.kind) {
      case 'keys':
        res.writeHead(200, {
          'content-type': directoryType,
          'cache-control': current.cacheControl ?? 'max-age=86400',
        });
        return void res.end(JSON.stringify({ keys: [publicJwk] }));
      case 'private-key':
        res.writeHead(200, { 'content-type': directoryType });
        return void res.end(JSON.stringify({ keys: [own] }));
      case 'oversized':
        res.writeHead(200, { 'content-type': directoryType });
        return void res.end(JSON.stringify({ keys: [publicJwk], padding: 'x'.repeat(200_000) }));
      case 'slow':
        setTimeout(() => {
          res.writeHead(200, { 'content-type': directoryType });
          res.end(JSON.stringify({ keys: [publicJwk] }));
        }, current.afterMs).unref();
        return;
      case 'dripping': {
        // Headers at once, then a byte a second: only a bound on the whole exchange stops it.
        res.writeHead(200, { 'content-type': directoryType });
        const timer = setInterval(() => res.write(' '), 1_000);
        res.once('close', () => clearInterval(timer));
        return;
      }
      case 'redirect':
        return void res.writeHead(302, { location: current.to }).end();
      case 'status':
        return void res.writeHead(current.status).end();
    }
  }
  server.on('connection', () => void agent.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = options.origin?.(port) ?? `http://127.0.0.1:${port}`;
  const signers = { own: await signerFromJWK(own), stranger: await signerFromJWK(stranger) };

  const agent: SigningAgent = {
    origin,
    directoryFetches: 0,
    connections: 0,
    behaviour,
    async sign(
      url,
      {
        form = 'string',
        created = new Date(),
        expires = new Date(created.getTime() + 60_000),
        key = 'own',
      } = {},
    ) {
      if (form !== 'string') {
        const signatureAgent =
          form === 'jwks_uri'
            ? `sig1="${origin}${JWKS_PATH}";type=jwks_uri`
            : form === 'cimd'
              ? `sig1="${origin}${CIMD_PATH}";type=cimd`
              : `sig1="${origin}"`;
        const jwk = key === 'own' ? own : stranger;
        const privateKey = await crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, [
          'sign',
        ]);
        const fields = await createSignature(
          new Request(url, { headers: { 'Signature-Agent': signatureAgent } }),
          {
            label: 'sig1',
            components: ['@authority', component('signature-agent', { key: 'sig1' })],
            parameters: {
              created: Math.floor(created.getTime() / 1000),
              expires: Math.floor(expires.getTime() / 1000),
              keyid: await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }),
              nonce: generateNonce(),
              tag: 'web-bot-auth',
            },
            signer: webcrypto.signer(privateKey),
          },
        );
        return {
          'Signature-Agent': signatureAgent,
          Signature: fields.signature,
          'Signature-Input': fields.signatureInput,
        };
      }
      const signatureAgent = `"${origin}"`;
      const headers = await signatureHeaders(
        new Request(url, { headers: { 'Signature-Agent': signatureAgent } }),
        signers[key],
        { created, expires },
      );
      return {
        'Signature-Agent': signatureAgent,
        Signature: headers.Signature,
        'Signature-Input': headers['Signature-Input'],
      };
    },
    async signMany(url, count, lifetimeSeconds) {
      const signer = webcrypto.signer(
        await crypto.subtle.importKey('jwk', own, { name: 'Ed25519' }, false, ['sign']),
      );
      const keyid = await calculateJwkThumbprint(publicJwk);
      const signatureAgent = `"${origin}"`;
      const request = new Request(url, { headers: { 'Signature-Agent': signatureAgent } });
      const created = Math.floor(Date.now() / 1000);
      const signOne = async () => {
        const parameters = {
          created,
          expires: created + lifetimeSeconds,
          keyid,
          nonce: generateNonce(),
          tag: 'web-bot-auth',
        };
        const fields = await createSignature(request, {
          label: 'sig1',
          components: ['@authority', component('signature-agent')],
          parameters,
          signer,
        });
        return {
          'Signature-Agent': signatureAgent,
          Signature: fields.signature,
          'Signature-Input': fields.signatureInput,
        };
      };
      const signatures: Record<string, string>[] = [];
      while (signatures.length < count)
        signatures.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(256, count - signatures.length) }, signOne),
          )),
        );
      return signatures;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return agent;
}
