/**
 * The benchmarks' build figures (bench/measure-build.ts) come from each build's own log: real `astro
 * build`s of a small static site (tests/fixtures/cache-site), cold then warm, read by the harness; a
 * log without a line the figures need is an error naming it, never a figure of zero.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { BUILD_LOG_LINES, measureBuild, parseBuildLog } from '../../bench/measure-build.ts';
import { useFixtureCopy } from '../helpers/fixture-copy.ts';

const SITE = useFixtureCopy('cache-site', 'bench-log-site');
const OUT_DIR = join(SITE, 'dist');

test("the harness reads Astro's render, the integration's steps and the pages converted and reused from a cold and a warm build", async () => {
  const cold = await measureBuild(SITE, OUT_DIR, { cold: true });
  assert.deepEqual({ converted: cold.converted, reused: cold.reused }, { converted: 5, reused: 0 });
  // The pages were converted as Astro rendered them: the Markdown step after the render may have none left (0.00 s).
  assert.ok(
    cold.renderMs > 0 && cold.stepsMs > 0 && cold.markdownMs >= 0,
    `render ${cold.renderMs} ms, steps ${cold.stepsMs} ms, Markdown ${cold.markdownMs} ms`,
  );
  assert.ok(
    cold.astroPeakBytes > 0 && cold.peakRssBytes >= cold.astroPeakBytes,
    `Astro's peak ${cold.astroPeakBytes}, the tree's ${cold.peakRssBytes}`,
  );
  // The CPU of the whole tree: Astro's process loads Astro and renders (seconds of CPU), and no tree can use more than every core for the whole build.
  const cpuMs = cold.cpuUserMs + cold.cpuSystemMs;
  assert.ok(
    cpuMs > 500 && cpuMs <= cold.wallMs * availableParallelism(),
    `CPU ${cpuMs} ms (${cold.cpuSystemMs} system) in ${Math.round(cold.wallMs)} ms on ${availableParallelism()} cores`,
  );

  const warm = await measureBuild(SITE, OUT_DIR, { cold: false });
  assert.deepEqual({ converted: warm.converted, reused: warm.reused }, { converted: 0, reused: 5 });
  assert.ok(warm.renderMs > 0 && warm.stepsMs > 0);

  for (const line of ['converted', 'steps'] as const) {
    const without = warm.log
      .split('\n')
      .filter((text) => !BUILD_LOG_LINES[line].pattern.test(text))
      .join('\n');
    assert.throws(
      () => parseBuildLog(without),
      (error: Error) =>
        error.message.includes(`BUILD_LOG_LINES.${line}`) &&
        error.message.includes(String(BUILD_LOG_LINES[line].pattern)),
    );
  }
});

test('a render of a minute or more, which Astro logs as `1m 6s`, is read in full', () => {
  const log = (took: string) =>
    `prerendering static routes\n✓ Completed in ${took}.\nconverted 5 pages to Markdown in 0.10 s (2 while Astro rendered, 0 reused from earlier builds)\nbuild steps done in 2.50 s`;
  assert.deepEqual(
    ['1m 6s', '2m 0.5s', '7.25s', '812ms'].map((took) => parseBuildLog(log(took)).renderMs),
    [66_000, 120_500, 7_250, 812],
  );
});
