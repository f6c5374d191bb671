/**
 * How close the `X-Markdown-Tokens` estimate (server/negotiate.ts: UTF-8 bytes over 4) comes to real
 * tokenizers on built twins, beside other cheap estimates: GPT-4o's o200k_base and GPT-4's
 * cl100k_base, from gpt-tokenizer (a dev dependency: the server never loads a tokenizer).
 * Usage: node bench/markdown-tokens.ts [client folder…] (default: the demo's test build, tests/.build/dist/client)
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { countTokens as countO200k } from 'gpt-tokenizer';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { estimateMarkdownTokens } from '../packages/astro-agent-api/src/server/negotiate.ts';

interface Twin {
  characters: number;
  bytes: number;
  o200k: number;
  cl100k: number;
}

const ESTIMATES: Record<string, (twin: Twin) => number> = {
  'bytes / 4 (sent)': (twin) => estimateMarkdownTokens(twin.bytes),
  'characters / 4': (twin) => Math.ceil(twin.characters / 4),
  'characters / 3.5': (twin) => Math.ceil(twin.characters / 3.5),
};

const folders = process.argv.slice(2);
for (const folder of folders.length > 0 ? folders : ['tests/.build/dist/client']) {
  // The twins: every `.md` file but the agent documents (agents.md, auth.md, the skill under .well-known/).
  const files = (await readdir(folder, { recursive: true })).filter(
    (file) =>
      file.endsWith('.md') &&
      !['agents.md', 'auth.md'].includes(file) &&
      !file.startsWith('.well-known/'),
  );
  const twins: Twin[] = await Promise.all(
    files.map(async (file) => {
      const text = await readFile(join(folder, file), 'utf8');
      return {
        characters: text.length,
        bytes: Buffer.byteLength(text),
        o200k: countO200k(text),
        cl100k: countCl100k(text),
      };
    }),
  );
  const total = (key: keyof Twin) => twins.reduce((sum, twin) => sum + twin[key], 0);
  process.stdout.write(
    `\n${folder}: ${twins.length} twins, ${(total('characters') / total('o200k')).toFixed(2)} characters per o200k token, ${(total('characters') / total('cl100k')).toFixed(2)} per cl100k token\n\n`,
  );
  process.stdout.write(
    '| estimate | tokenizer | median error | 90th percentile | mean (signed) | range |\n|---|---|---|---|---|---|\n',
  );
  for (const [name, estimate] of Object.entries(ESTIMATES)) {
    for (const tokenizer of ['o200k', 'cl100k'] as const) {
      const errors = twins
        .map((twin) => (estimate(twin) - twin[tokenizer]) / twin[tokenizer])
        .sort((a, b) => a - b);
      const absolute = errors.map(Math.abs).sort((a, b) => a - b);
      const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
      const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
      process.stdout.write(
        `| ${name} | ${tokenizer} | ${percent(absolute[Math.floor(absolute.length / 2)]!)} | ${percent(absolute[Math.floor(absolute.length * 0.9)]!)} | ${percent(mean)} | ${percent(errors[0]!)} to ${percent(errors.at(-1)!)} |\n`,
      );
    }
  }
}
