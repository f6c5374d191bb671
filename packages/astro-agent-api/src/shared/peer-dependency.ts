/**
 * The package's optional peer dependencies (`peerDependenciesMeta` in package.json): installed only by
 * the sites that use them, so every other site skips their megabytes.
 */
export const OPTIONAL_PEERS = {
  /** The Redis client, for REDIS_URL. */
  redis: 'redis',
  /** The charts of the HTML traffic report. */
  chartJs: 'chart.js',
} as const;

export class MissingPeerError extends Error {
  constructor(name: string, use: string) {
    super(
      `${use} needs the \`${name}\` package, which is not installed in this site. Run \`npm install ${name}\` in the site's folder.`,
    );
  }
}

/** Throws MissingPeerError, which says how to install it, when `name` cannot be resolved from this package. */
export function assertPeerInstalled(name: string, use: string): void {
  try {
    import.meta.resolve(name);
  } catch {
    throw new MissingPeerError(name, use);
  }
}
