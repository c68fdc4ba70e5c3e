// Small text forms the commands share: counted nouns, sizes, short digests, aligned columns.

/** `1 file`, `2 files`, `0 files`; `plural(1, 'match', 'matches')`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Bytes for people: `512 B`, `1.5 KiB`, `2.0 MiB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** `sha256:0123456789ab…`: enough to compare by eye; --json has the whole digest. */
export const shortDigest = (digest: string) => (digest.length > 19 ? `${digest.slice(0, 19)}…` : digest);

/** Rows as columns padded to their widest cell (the last column is not padded). */
export function columns(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export const lines = (...parts: (string | false | undefined)[]) =>
  parts.filter((part): part is string => typeof part === 'string').join('\n');
