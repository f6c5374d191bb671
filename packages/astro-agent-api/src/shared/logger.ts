/**
 * Where the runtime tells the operator what went wrong or what it works around. Each host passes its
 * own: Astro's integration logger in `astro dev`, the console otherwise. Nothing of the runtime writes
 * to the console itself.
 */
export interface RuntimeLogger {
  /** A request or a task failed: said with its cause. */
  error(message: string, cause?: unknown): void;
  /** A state the service works around (a store away, a build that could not be loaded): said once, not per request. */
  warn(message: string): void;
}

export const consoleLogger: RuntimeLogger = {
  error: (message, cause) =>
    cause === undefined ? console.error(message) : console.error(message, cause),
  warn: (message) => console.warn(message),
};
