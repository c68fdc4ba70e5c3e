// The fallback reader, part 1 of 3: frontmatter that is not valid YAML, read the way agent runtimes read
// it: top-level `key: value` lines, each followed by its more-indented lines. This file splits the lines
// into entries and reads key lines and quoted text; lenient-values.ts reads an entry's value and
// lenient-diagnose.ts says why it is not valid YAML. Every function of the reader is a single pass over its
// lines (no backtracking regexes), and nesting is cut at MAX_FRONTMATTER_DEPTH, so the whole reader is
// linear in the frontmatter.

/** One top-level field: its key line and the lines that belong to it. */
export interface Entry {
  key: string;
  /** Index (0-based) of the key line among the frontmatter's lines. */
  line: number;
  /** Index of the first line after the entry. */
  end: number;
  /** The text after `key:` on the key line, trimmed. */
  first: string;
  /** The entry's following lines, as written (more indented, blank, comments, or `- ` items). */
  more: string[];
}

export interface Split {
  entries: Entry[];
  /** Indexes of non-blank lines before the first key that are not comments: they belong to no field. */
  stray: number[];
}

/**
 * Splits lines into top-level entries. A key line starts at column 0 with `key:` (or a quoted key) followed
 * by a space, a tab or the end of the line; every other line belongs to the entry above it.
 */
export function splitEntries(lines: readonly string[]): Split {
  const entries: Entry[] = [];
  const stray: number[] = [];
  let current: Entry | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const key = keyLine(line);
    if (key) {
      if (current) current.end = i;
      current = { key: key.key, line: i, end: lines.length, first: key.rest.trim(), more: [] };
      entries.push(current);
    } else if (current) {
      current.more.push(line);
    } else if (line.trim() !== '' && !line.trimStart().startsWith('#')) {
      stray.push(i);
    }
  }
  return { entries, stray };
}

/** `key: rest` at column 0, or null. */
export function keyLine(line: string): { key: string; rest: string } | null {
  const c = line[0];
  if (c === undefined || c === ' ' || c === '\t' || c === '#') return null;
  if (c === '-' && (line.length === 1 || line[1] === ' ' || line[1] === '\t')) return null;
  let end: number;
  let key: string;
  if (c === '"' || c === "'") {
    const close = closingQuote(line, 0);
    if (close < 0) return null;
    let i = close + 1;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] !== ':' || !separates(line, i + 1)) return null;
    key = c === '"' ? unescapeDouble(line.slice(1, close)) : line.slice(1, close).replaceAll("''", "'");
    end = i;
  } else {
    end = -1;
    for (let i = line.indexOf(':'); i >= 0; i = line.indexOf(':', i + 1)) {
      if (separates(line, i + 1)) {
        end = i;
        break;
      }
    }
    if (end < 0) return null;
    key = line.slice(0, end).trim();
    if (key === '' || key.includes(' #')) return null;
  }
  return { key, rest: line.slice(end + 1) };
}

/** A `:` is a key separator when followed by a space, a tab or the end of the line. */
function separates(line: string, at: number): boolean {
  return at >= line.length || line[at] === ' ' || line[at] === '\t';
}

/** Index of the quote closing the quoted text that opens at `open`, or -1. */
export function closingQuote(text: string, open: number): number {
  const q = text[open];
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (q === '"' && c === '\\') i++;
    else if (q === "'" && c === "'" && text[i + 1] === "'") i++;
    else if (c === q) return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  '"': '"',
  '\\': '\\',
  '/': '/',
  ' ': ' ',
  b: '\b',
  f: '\f',
  e: '\x1b',
  N: '\u0085',
  _: '\u00a0',
};

/** YAML double-quoted escapes; an unknown escape is kept as written. Line breaks fold to a space. */
export function unescapeDouble(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      out = out.trimEnd() + ' ';
      while (text[i + 1] === ' ' || text[i + 1] === '\t') i++;
    } else if (c !== '\\' || i + 1 >= text.length) {
      out += c;
    } else {
      const e = text[++i]!;
      const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      const hex = width ? text.slice(i + 1, i + 1 + width) : '';
      if (width && /^[0-9a-fA-F]+$/.test(hex) && hex.length === width && Number.parseInt(hex, 16) <= 0x10ffff) {
        out += String.fromCodePoint(Number.parseInt(hex, 16));
        i += width;
      } else if (ESCAPES[e] !== undefined) {
        out += ESCAPES[e];
      } else {
        out += `\\${e}`;
      }
    }
  }
  return out;
}
