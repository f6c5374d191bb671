import { ApiError } from '../contract/api-error.ts';
import type { RuntimeLogger } from '../shared/logger.ts';
import type { Store, WindowCounter } from './store.ts';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError } from './store-unavailable.ts';

/** The runtime's store, opened by its first use. */
export interface DeferredStore extends Store {
  /** The opened store; rejects with the opening's own error (a server's start-up says it as it is). */
  opened(): Promise<Store>;
}

/**
 * The store, opened by the first request that needs it rather than before any: what needs no store
 * (the documents, the twins, the pages) answers whatever the store's state. A store that cannot be
 * opened makes what needs it a 503: a backend's own ApiError as it is (a D1 database without its tables
 * names the migration to run), anything else a StoreUnavailableError, its cause logged once per outage.
 * The opening is tried again by the first use `retryMs` after a failure, not by every request.
 */
export function createDeferredStore(
  open: () => Promise<Store>,
  options: { logger: RuntimeLogger; retryMs?: number; now?: () => number },
): DeferredStore {
  const retryMs = options.retryMs ?? STORE_RETRY_AFTER_SECONDS * 1000;
  const now = options.now ?? Date.now;
  let store: Store | undefined;
  let opening: Promise<Store> | undefined;
  let failed: { cause: unknown; error: ApiError; at: number } | undefined;

  function opened(): Promise<Store> {
    if (store) return Promise.resolve(store);
    if (failed && now() - failed.at < retryMs) return Promise.reject(failed.cause);
    opening ??= open().then(
      (backend) => {
        if (failed)
          options.logger.warn(
            `agent-api: the ${backend.backend} store is open; what needs it answers again.`,
          );
        failed = undefined;
        opening = undefined;
        store = backend;
        return backend;
      },
      (cause: unknown) => {
        // A known state is said as it is; the cause of anything else stays in the log, never in an answer.
        const error =
          cause instanceof ApiError
            ? cause
            : new StoreUnavailableError(
                undefined,
                cause,
                `Retry in ${STORE_RETRY_AFTER_SECONDS} s (Retry-After).`,
              );
        if (!failed)
          options.logger.error(
            `agent-api: cannot open the store; what needs it answers ${error.status} until it opens, tried again every ${retryMs / 1000} s`,
            cause,
          );
        failed = { cause, error, at: now() };
        opening = undefined;
        throw cause;
      },
    );
    return opening;
  }

  /** A call of the opened store; an opening that failed is the client's 503. */
  async function use<T>(call: (backend: Store) => Promise<T>): Promise<T> {
    let backend: Store;
    try {
      backend = await opened();
    } catch {
      throw failed!.error;
    }
    return call(backend);
  }

  const counter = (pick: (backend: Store) => WindowCounter): WindowCounter => ({
    hit: (key, hitOptions) => use((backend) => pick(backend).hit(key, hitOptions)),
    peek: (key, peekOptions) => use((backend) => pick(backend).peek(key, peekOptions)),
  });

  return {
    get backend() {
      return store?.backend ?? 'not opened';
    },
    windows: counter((backend) => backend.windows),
    anonymousWindows: counter((backend) => backend.anonymousWindows),
    createClient: (client) => use((backend) => backend.createClient(client)),
    findClient: (clientId) => use((backend) => backend.findClient(clientId)),
    insertToken: (token) => use((backend) => backend.insertToken(token)),
    findToken: (tokenHash, at) => use((backend) => backend.findToken(tokenHash, at)),
    deleteToken: (tokenHash, clientId) =>
      use((backend) => backend.deleteToken(tokenHash, clientId)),
    insertAuthorizationCode: (code) => use((backend) => backend.insertAuthorizationCode(code)),
    findAuthorizationCode: (codeHash, at) =>
      use((backend) => backend.findAuthorizationCode(codeHash, at)),
    redeemAuthorizationCode: (codeHash, grant, tokens, at) =>
      use((backend) => backend.redeemAuthorizationCode(codeHash, grant, tokens, at)),
    findRefreshToken: (tokenHash, at) => use((backend) => backend.findRefreshToken(tokenHash, at)),
    rotateRefreshToken: (tokenHash, tokens, at) =>
      use((backend) => backend.rotateRefreshToken(tokenHash, tokens, at)),
    revokeGrant: (grantId, clientId) => use((backend) => backend.revokeGrant(grantId, clientId)),
    claimOnce: (key, expiresAt, at) => use((backend) => backend.claimOnce(key, expiresAt, at)),
    purgeExpired: (at) => use((backend) => backend.purgeExpired(at)),
    deleteIdleClients: (idleSince) => use((backend) => backend.deleteIdleClients(idleSince)),
    addTraffic: (batch) => use((backend) => backend.addTraffic(batch)),
    readTraffic: (sinceDay) => use((backend) => backend.readTraffic(sinceDay)),
    deleteTrafficBefore: (day) => use((backend) => backend.deleteTrafficBefore(day)),
    opened,
    async close() {
      await opening?.catch(() => undefined);
      await store?.close();
      store = undefined;
    },
  };
}
