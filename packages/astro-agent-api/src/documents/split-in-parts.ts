/**
 * How llms.txt and llms-full.txt cut a list too long for one file: the entries in order, each part
 * within `budget` characters (an entry longer than that has a part of its own). Each part is written as
 * a file of its own, named by partFile.
 */
export function splitInParts<T>(
  entries: readonly T[],
  lengthOf: (entry: T) => number,
  budget: number,
): T[][] {
  const parts: T[][] = [[]];
  let length = 0;
  for (const entry of entries) {
    const entryLength = lengthOf(entry);
    if (length + entryLength > budget && parts.at(-1)!.length > 0) {
      parts.push([]);
      length = 0;
    }
    parts.at(-1)!.push(entry);
    length += entryLength;
  }
  return parts;
}

/** The public path of part `index` (from 0) of `count` under `base` (`/llms/guides`): `<base>.txt` when it is the only one, else `<base>/<n>.txt`; and its label, ` (n/count)` or ''. */
export function partFile(
  base: string,
  index: number,
  count: number,
): { path: string; label: string } {
  return count > 1
    ? { path: `${base}/${index + 1}.txt`, label: ` (${index + 1}/${count})` }
    : { path: `${base}.txt`, label: '' };
}
