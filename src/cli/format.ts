// Small text forms the commands share: counted nouns, sizes, short digests, aligned columns; and what every
// printed line goes through, so that text from a registry cannot drive the terminal it is printed on.
import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';

// What a terminal acts on instead of showing: C0 controls but tab and line feed (ESC starts sequences that hide
// text, write the clipboard or retitle the window; a lone CR overwrites the line), DEL, the C1 range (U+009B
// is CSI on some terminals), and the bidi embeddings, overrides and isolates that reorder what follows them.
const UNPRINTABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
// In JSON text the same, but CR, JSON white space between tokens (inside strings JSON.stringify escapes it).
const UNPRINTABLE_IN_JSON = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text for a terminal: CRLF as a line feed, every other control character shown as `\u001b`. */
export const printable = (text: string) => text.replace(/\r\n/g, '\n').replace(UNPRINTABLE, escaped);

/**
 * JSON text for a terminal: the characters JSON.stringify leaves raw (DEL, C1, bidi controls) as JSON escapes,
 * so that a parser reads exactly the same value.
 */
export const printableJson = (json: string) => json.replace(UNPRINTABLE_IN_JSON, escaped);

/** printableJson over a stream of JSON text (a character split across two chunks is decoded whole). */
export function printableJsonStream(): Transform {
  const decoder = new StringDecoder('utf8');
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, printableJson(decoder.write(chunk)));
    },
    flush(done) {
      done(null, printableJson(decoder.end()));
    },
  });
}

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
