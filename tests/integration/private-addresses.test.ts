/**
 * Documents fetched from other hosts (agents' key directories, clients' metadata documents and key
 * sets) never reach into the server's own network unless the site lists their origin. On Node the
 * check is made on the address the connection is made to (hosts/node/node-outbound-fetch.ts): a host name
 * that resolves to a loopback or private address is refused whatever the name, which is what a DNS
 * rebinding attack relies on. The name used here is the machine's own host name, which resolves to a
 * loopback or private address without any DNS server (/etc/hosts); `localhost` is refused by name
 * before any lookup. Over real HTTP, with real sockets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchOutboundOnNode } from '../../packages/astro-agent-api/src/hosts/node/node-outbound-fetch.ts';
import { startConfiguredServer } from '../helpers/configured-server.ts';
import { startDocumentHost, type DocumentHost } from '../helpers/document-host.ts';
import {
  createDocumentClient,
  findPrivateName,
  NO_PRIVATE_NAME,
  type DocumentClient,
} from '../helpers/private-name.ts';
import type { TestServer } from '../helpers/server.ts';
import { startSigningAgent, type SigningAgent } from '../helpers/signing-agent.ts';

const SITE = 'http://localhost:4321';
const PATH = '/api/v1/search_pages?query=fontanero';
const ANONYMOUS_POLICY = '"anonimo";q=60;w=60';

const privateName = await findPrivateName();
const skip = privateName ? false : NO_PRIVATE_NAME;

let host: DocumentHost;
let client: DocumentClient;
let hostPort: string;

before(async () => {
  host = await startDocumentHost();
  hostPort = new URL(host.origin).port;
  client = await createDocumentClient();
});
after(() => host?.close());

/** A metadata document served at `path`, naming `clientId` as its own. */
function serveDocument(path: string, clientId: string): void {
  client.serve(host, path, clientId);
}

function tokenRequest(server: TestServer, clientId: string): Promise<Response> {
  return client.requestToken(`${server.url}/oauth/token`, `${SITE}/oauth/token`, clientId);
}

describe("the Node host's outbound fetch checks the address it connects to", { skip }, () => {
  test('a name that resolves to a loopback address is refused when the connection is made: no connection reaches the host', async () => {
    const url = new URL(`https://${privateName!.name}:${hostPort}/doc.json`);
    host.documents.set('/doc.json', { body: {} });
    const connections = host.connections;
    await assert.rejects(
      fetchOutboundOnNode(url, { signal: AbortSignal.timeout(3_000), allowPrivate: false }),
      (error: NodeJS.ErrnoException) => {
        assert.equal(error.code, 'EADDRNOTPUBLIC');
        assert.match(
          error.message,
          new RegExp(
            `${privateName!.name} resolves to (${privateName!.addresses.join('|').replaceAll('.', '\\.')}), which is not a public address`,
          ),
        );
        return true;
      },
    );
    assert.equal(host.connections, connections, 'no connection was made');
  });

  test('the same name, listed by the site, is fetched', async () => {
    const response = await fetchOutboundOnNode(
      new URL(`http://${privateName!.name}:${hostPort}/doc.json`),
      { signal: AbortSignal.timeout(3_000), allowPrivate: true },
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {});
    assert.equal(host.hits.get('/doc.json'), 1);
  });
});

describe('over HTTP: an unlisted key directory or metadata document on a private address is refused, a listed one accepted', {
  skip,
}, () => {
  let open: TestServer;
  let listed: TestServer;
  let unlistedAgent: SigningAgent;
  let listedAgent: SigningAgent;

  before(async () => {
    // The same loopback directory under the private name: over https when the site does not list it
    // (anything else is refused before a connection is tried), over http when it does.
    unlistedAgent = await startSigningAgent(
      { kind: 'keys' },
      { origin: (port) => `https://${privateName!.name}:${port}` },
    );
    listedAgent = await startSigningAgent(
      { kind: 'keys' },
      { origin: (port) => `http://${privateName!.name}:${port}` },
    );
    // Takes any public document and verifies any signer: only the address stands in the way.
    open = await startConfiguredServer({
      clientMetadataDocuments: true,
      signedAgents: {
        policy: { name: 'agente-firmado', quota: 600 },
        trusted: {},
        unlisted: 'signed',
      },
    });
    listed = await startConfiguredServer({
      clientMetadataDocuments: [`http://${privateName!.name}:${hostPort}`],
      signedAgents: {
        policy: { name: 'agente-firmado', quota: 600 },
        trusted: { [listedAgent.origin]: {} },
        unlisted: 'anonymous',
      },
    });
  });
  after(async () => {
    await Promise.all([open?.close(), listed?.close()]);
    await Promise.all([unlistedAgent?.close(), listedAgent?.close()]);
  });

  test('a metadata document at a name resolving to loopback: invalid_client naming the address; no connection made', async () => {
    const clientId = `https://${privateName!.name}:${hostPort}/clients/private.json`;
    serveDocument('/clients/private.json', clientId);
    const connections = host.connections;
    const response = await tokenRequest(open, clientId);
    assert.equal(response.status, 401);
    const body = (await response.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_client');
    assert.match(body.error_description, /resolves to .*, which is not a public address/);
    assert.equal(host.connections, connections, 'no connection was made');
  });

  test('https://localhost:<port>: refused by its name, before any lookup', async () => {
    const clientId = `https://localhost:${hostPort}/clients/localhost.json`;
    serveDocument('/clients/localhost.json', clientId);
    const connections = host.connections;
    const body = (await (await tokenRequest(open, clientId)).json()) as {
      error_description: string;
    };
    assert.match(body.error_description, new RegExp(`localhost:${hostPort} is not a public host`));
    assert.equal(host.connections, connections, 'no connection was made');
  });

  test('a key directory at a name resolving to loopback: the signed request is anonymous; no connection made', async () => {
    const response = await fetch(`${open.url}${PATH}`, {
      headers: await unlistedAgent.sign(`${SITE}${PATH}`),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('ratelimit-policy'), ANONYMOUS_POLICY);
    assert.equal(unlistedAgent.connections, 0, 'no connection was made');
  });

  test("listed by the site, the same addresses are accepted: a token for the document client, the agent's quota for the signer", async () => {
    const clientId = `http://${privateName!.name}:${hostPort}/clients/listed.json`;
    serveDocument('/clients/listed.json', clientId);
    assert.equal((await tokenRequest(listed, clientId)).status, 200);
    assert.equal(host.hits.get('/clients/listed.json'), 1);
    const signed = await fetch(`${listed.url}${PATH}`, {
      headers: await listedAgent.sign(`${SITE}${PATH}`),
    });
    assert.equal(signed.headers.get('ratelimit-policy'), '"agente-firmado";q=600;w=60');
    assert.equal(listedAgent.directoryFetches, 1);
  });
});
