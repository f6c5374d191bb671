import { gunzipSync } from 'node:zlib';

/** One address a visitor, an agent or the browser search box asks for while a site is republished. */
export interface PollTarget {
  /** What it is, in messages: `page`, `twin .md`, `search_pages`, … */
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** A Pagefind file: its bytes are gzip behind Pagefind's signature (`pagefind_dcd`), decoded to read them. */
  pagefind?: boolean;
}

export interface PollAnswer {
  name: string;
  status: number;
  /** The body as text (a Pagefind file decompressed); '' when the request itself failed. */
  text: string;
  /** When the request was sent, in ms since the poller started. */
  sentMs: number;
}

export interface PollLog {
  /** Every round, in order: a round asks for every target at once and ends when all have answered. */
  rounds: PollAnswer[][];
  /** `performance.now()` when the poller started: the origin of `sentMs`. */
  startedAt: number;
}

/**
 * Asks for every target every `intervalMs` (a round starts when the previous one has answered and
 * the interval has passed since it started) until `stop()`, which resolves with every answer.
 */
export function startPolling(
  baseUrl: string,
  targets: readonly PollTarget[],
  intervalMs: number,
): { stop(): Promise<PollLog> } {
  const startedAt = performance.now();
  const rounds: PollAnswer[][] = [];
  let stopped = false;
  const ask = async (target: PollTarget): Promise<PollAnswer> => {
    const sentMs = performance.now() - startedAt;
    try {
      const response = await fetch(new URL(target.path, baseUrl), { headers: target.headers });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        name: target.name,
        status: response.status,
        text: decode(bytes, target.pagefind === true && response.ok),
        sentMs,
      };
    } catch (error) {
      return { name: target.name, status: 0, text: String(error), sentMs };
    }
  };
  const running = (async () => {
    while (!stopped) {
      const roundStart = performance.now();
      rounds.push(await Promise.all(targets.map(ask)));
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, intervalMs - (performance.now() - roundStart))),
      );
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return { rounds, startedAt };
    },
  };
}

const PAGEFIND_SIGNATURE = 'pagefind_dcd';

function decode(bytes: Uint8Array, pagefind: boolean): string {
  if (!pagefind) return new TextDecoder().decode(bytes);
  const text = new TextDecoder().decode(gunzipSync(bytes));
  return text.startsWith(PAGEFIND_SIGNATURE) ? text.slice(PAGEFIND_SIGNATURE.length) : text;
}

/** The answers that were not 200, each with its target and when it was asked. */
export function failuresOf(log: PollLog): PollAnswer[] {
  return log.rounds.flat().filter((answer) => answer.status !== 200);
}

/**
 * Seconds during which `name` did not answer 200: from the first round in which it failed to the
 * first round after that in which it answered 200 again, summed over every such spell (a spell still
 * open at the end runs to the last round).
 */
export function downtimeSeconds(log: PollLog, name: string): number {
  let total = 0;
  let failingSince: number | undefined;
  for (const round of log.rounds) {
    const answer = round.find((candidate) => candidate.name === name);
    if (!answer) continue;
    if (answer.status !== 200) failingSince ??= answer.sentMs;
    else if (failingSince !== undefined) {
      total += answer.sentMs - failingSince;
      failingSince = undefined;
    }
  }
  const last = log.rounds.at(-1)?.find((candidate) => candidate.name === name);
  if (failingSince !== undefined && last) total += last.sentMs - failingSince;
  return total / 1000;
}

/** The first round (its index) in which every target's answer satisfies `isNew`; undefined when none. */
export function firstRoundWhere(
  log: PollLog,
  isNew: (answer: PollAnswer) => boolean,
): number | undefined {
  const index = log.rounds.findIndex((round) => round.every(isNew));
  return index === -1 ? undefined : index;
}
