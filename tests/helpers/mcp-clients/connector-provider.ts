import { randomBytes } from 'node:crypto';
import type { Network } from '../client-matrix.ts';

type Json = Record<string, any>;

/** Where the connector's app would take its callback (RFC 8252 §7.3 loopback); the test reads the redirect instead of listening there. */
export const CONNECTOR_REDIRECT_URL = 'http://127.0.0.1:33418/callback';

/**
 * An app's OAuth client provider for the authorization code flow with PKCE, in the shape of the MCP
 * TypeScript SDK's `OAuthClientProvider` (1.x and 2.x; LangChain's, Mastra's and OpenAI's adapters
 * pass it to the SDK's transport) and of the Vercel AI SDK's (the same methods and a few more), holding what an app would keep in its store. It starts from a
 * stale access token, as an app whose token the server no longer knows. Its "browser" follows the
 * authorization URL once: the server approves at once and redirects to the app's callback with the
 * code, which is what the app's callback server would receive.
 */
export class ConnectorProvider {
  private stored: Json | undefined;
  private client: Json | undefined;
  private verifier = '';
  private expectedState = '';
  private serverInformation: Json | undefined;
  /** The query of the redirect to the app's callback (code, state, iss), once the browser has been there. */
  callback: URLSearchParams | undefined;
  /** Authorization URLs opened, in order. */
  readonly opened: URL[] = [];

  private readonly network: Network;
  private readonly name: string;

  constructor(network: Network, staleToken: string, name = 'Client matrix connector') {
    this.network = network;
    this.name = name;
    this.stored = { access_token: staleToken, token_type: 'Bearer' };
  }

  get redirectUrl(): string {
    return CONNECTOR_REDIRECT_URL;
  }

  get clientMetadata(): Json {
    return {
      client_name: this.name,
      redirect_uris: [CONNECTOR_REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'content:read quota:read',
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  storedState(): string {
    return this.expectedState;
  }

  /** The authorization server the client and tokens belong to (the Vercel AI SDK keeps it beside them). */
  authorizationServerInformation(): Json | undefined {
    return this.serverInformation;
  }

  saveAuthorizationServerInformation(information: Json): void {
    this.serverInformation = information;
  }

  clientInformation(): Json | undefined {
    return this.client;
  }

  saveClientInformation(information: Json): void {
    this.client = information;
  }

  tokens(): Json | undefined {
    return this.stored;
  }

  saveTokens(tokens: Json): void {
    this.stored = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
  }

  /** The person's browser: opens the URL, and the site's answer sends it to the app's callback. */
  async redirectToAuthorization(url: URL): Promise<void> {
    this.opened.push(url);
    const response = await fetch(url, {
      redirect: 'manual',
      dispatcher: this.network.dispatcher,
    } as RequestInit);
    const location = response.headers.get('location');
    if (location === null)
      throw new Error(
        `the authorization endpoint answered ${response.status} without a redirect: ${(await response.text()).slice(0, 500)}`,
      );
    const callback = new URL(location, url);
    if (`${callback.origin}${callback.pathname}` !== CONNECTOR_REDIRECT_URL)
      throw new Error(`the authorization endpoint redirected elsewhere: ${callback.href}`);
    if (callback.searchParams.get('state') !== this.expectedState)
      throw new Error(`the callback's state is not the one sent: ${callback.href}`);
    this.callback = callback.searchParams;
  }
}
