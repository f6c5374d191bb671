/**
 * `mcp-remote`, the stdio bridge Claude Desktop users put in claude_desktop_config.json, spawned as
 * Claude Desktop spawns it (`command` and `args`, MCP over its stdin and stdout) and spoken to with the
 * TS SDK's stdio client, which is what Claude Desktop's side of the pipe does; Claude gets a tool
 * result's text content. Its OAuth keeps its tokens under MCP_REMOTE_CONFIG_DIR (~/.mcp-auth by
 * default) and opens the person's browser with the `open` package, which on Linux runs xdg-open, which
 * runs `$BROWSER`: here tests/helpers/redirect-following-browser.ts, since authorization here needs no
 * person, only a browser that follows the redirects. It reaches the published addresses through the
 * session's proxy with its own `--enable-proxy` (HTTP_PROXY, as behind a company proxy).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { childEnv } from '../child-process.ts';
import {
  type Credentials,
  headerToken,
  type MatrixClient,
  type MatrixSite,
  type Network,
} from '../client-matrix.ts';
import { type SdkClient, sdkSession } from './ts-sdk.ts';

const BRIDGE = fileURLToPath(
  new URL('../../../node_modules/mcp-remote/dist/proxy.js', import.meta.url),
);
const BROWSER = fileURLToPath(new URL('../redirect-following-browser.ts', import.meta.url));

/** mcp-remote's store: `<config dir>/mcp-remote-v1/<md5 of the server URL and its options>_<file>`. */
function storePath(configDir: string, site: MatrixSite, file: string): string {
  const hash = createHash('md5').update(site.mcpUrl).digest('hex');
  return join(configDir, 'mcp-remote-v1', `${hash}_${file}`);
}

/**
 * The command-line options a user adds for a program's credentials: a token in a header, fetched as
 * auth.md shows, the way mcp-remote's README passes one (`--header "Authorization:${AUTH_HEADER}"`).
 * Its own `--client-credentials` never gets a token here: like the SDKs it asks for one only after a
 * 401 (it renews a token it holds), and this server serves an anonymous call instead of refusing it.
 */
async function credentialOptions(
  site: MatrixSite,
  network: Network,
  credentials: Credentials | undefined,
): Promise<{ args: string[]; env: Record<string, string> }> {
  if (credentials === undefined || credentials.kind === 'connector') return { args: [], env: {} };
  return {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote expands ${VAR} in a header from its environment
    args: ['--header', 'Authorization:${AUTH_HEADER}'],
    env: { AUTH_HEADER: `Bearer ${await headerToken(site, network, credentials)}` },
  };
}

export const mcpRemote: MatrixClient = {
  name: 'mcp-remote 0.15.1 (Claude Desktop)',
  lacks: {},
  async open(site, network, credentials) {
    const configDir = await mkdtemp(join(tmpdir(), 'mcp-remote-auth-'));
    if (credentials?.kind === 'connector') {
      // What the bridge kept from an earlier session, now unknown to the server.
      await mkdir(join(configDir, 'mcp-remote-v1'), { recursive: true });
      await writeFile(
        storePath(configDir, site, 'tokens.json'),
        JSON.stringify({ access_token: credentials.staleToken, token_type: 'Bearer' }),
      );
    }
    const program = await credentialOptions(site, network, credentials);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BRIDGE, site.mcpUrl, '--enable-proxy', ...program.args],
      env: childEnv({
        ...network.env,
        ...program.env,
        MCP_REMOTE_CONFIG_DIR: configDir,
        BROWSER,
      }) as Record<string, string>,
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => (log += chunk));
    const client = new Client({ name: 'claude-ai', version: '0.1.0' });
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => {});
      await rm(configDir, { recursive: true, force: true });
      throw new Error(
        `mcp-remote did not connect: ${(error as Error).message}\nits log (Claude Desktop's mcp-server log):\n${log.slice(-3000)}`,
        { cause: error },
      );
    }
    return sdkSession(client as unknown as SdkClient, {
      accessToken: async () => {
        const stored = await readFile(storePath(configDir, site, 'tokens.json'), 'utf8').catch(
          () => undefined,
        );
        return stored === undefined
          ? undefined
          : (JSON.parse(stored) as { access_token?: string }).access_token;
      },
      async close() {
        await client.close();
        await rm(configDir, { recursive: true, force: true });
      },
    });
  },
};
