/**
 * A circuit breaker for a backend that can hang (it keeps the connection and never answers): after a
 * call times out, calls fail at once for `coolDownMs` instead of each waiting its own timeout; then one
 * call probes the backend while the others still fail at once, and its answer closes the circuit.
 */
export interface CircuitBreaker {
  /** Runs `call` unless the circuit is open; `fail()` is what a call gets meanwhile. */
  run<T>(call: () => Promise<T>, fail: () => Error): Promise<T>;
}

export function createCircuitBreaker(options: {
  coolDownMs: number;
  /** True for the failures that open the circuit (a timeout); others leave it as it is. */
  opensOn: (error: unknown) => boolean;
  now?: () => number;
}): CircuitBreaker {
  const now = options.now ?? Date.now;
  /** 0 while closed; else when the next probe may go. */
  let openUntil = 0;
  let probing = false;
  return {
    async run(call, fail) {
      const probe = openUntil !== 0;
      if (probe && (probing || now() < openUntil)) throw fail();
      probing = probe;
      try {
        const result = await call();
        openUntil = 0;
        return result;
      } catch (error) {
        if (options.opensOn(error)) openUntil = now() + options.coolDownMs;
        throw error;
      } finally {
        if (probe) probing = false;
      }
    },
  };
}
