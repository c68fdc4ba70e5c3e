// The fallback reader: frontmatter that is not valid YAML, read the way agent runtimes read it: top-level
// `key: value` lines, each followed by its more-indented lines (block scalars, simple lists, nested
// `key: value` lines). Every function here is a single pass over its lines (no backtracking regexes), and
// nesting is cut at MAX_FRONTMATTER_DEPTH, so the whole reader is linear in the frontmatter.
import { MAX_FRONTMATTER_DEPTH } from './limits.js';

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
function closingQuote(text: string, open: number): number {
  const q = text[open];
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (q === '"' && c === '\\') i++;
    else if (q === "'" && c === "'" && text[i + 1] === "'") i++;
    else if (c === q) return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '"': '"', '\\': '\\', '/': '/', ' ': ' ', b: '\b', f: '\f', e: '\x1b', N: '\u0085', _: '\u00a0' };

/** YAML double-quoted escapes; an unknown escape is kept as written. Line breaks fold to a space. */
function unescapeDouble(text: string): string {
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

const BLOCK_HEADER = /^([|>])([1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?$/;
const BLOCK_WITH_TEXT = /^([|>])([1-9][+-]?|[+-][1-9]?)?[ \t]+([^ \t#].*)$/;

/**
 * The value of an entry, read as text the way a line reader would: a block scalar's lines, a list's items,
 * nested `key: value` lines as a mapping, an unclosed or unbalanced quoted value without its outer quotes,
 * anything else as one line of text (continuation lines folded with spaces).
 */
export function rawValue(first: string, more: readonly string[], depth: number): unknown {
  if (first === '') return block(more, depth);
  const header = BLOCK_HEADER.exec(first);
  if (header) return blockScalar(more, header[1] === '|', header[2] ?? '');
  const withText = BLOCK_WITH_TEXT.exec(first);
  if (withText) {
    // `description: | Use when...`: the text meant to open the block sits on the indicator line.
    const lines = [withText[3]!, ...dedent(more)];
    return (withText[1] === '|' ? lines.join('\n') : fold(lines)).trim();
  }
  if (first[0] === '"' || first[0] === "'") return quoted(first, more);
  if (first[0] === '[' && depth < MAX_FRONTMATTER_DEPTH) {
    const list = flowList(fold([first, ...more]));
    if (list) return list;
  }
  return fold([first, ...more]);
}

function quoted(first: string, more: readonly string[]): string {
  const q = first[0]!;
  const text = [first, ...more].join('\n');
  const close = closingQuote(text, 0);
  const inner = (to: number) => (q === '"' ? unescapeDouble(text.slice(1, to)) : fold(text.slice(1, to).replaceAll("''", "'").split('\n')));
  const after = close > 0 ? text.slice(close + 1).trim() : '';
  if (close > 0 && (after === '' || after.startsWith('#'))) return inner(close);
  const all = fold([first, ...more]);
  // `"He said "hi" to me"`: quotes inside a quoted value; the outer ones go.
  if (all.length >= 2 && all.endsWith(q)) return all.slice(1, -1);
  // `"Some text," more text`: the value goes on after its closing quote.
  if (close > 0) return `${inner(close)} ${fold(after.split('\n'))}`.trim();
  // Never closed: the value without its opening quote.
  return all.slice(1).trim();
}

/**
 * Whether an entry's first line alone shows that its value is not valid YAML: the common mistakes that
 * diagnose() names. Used to tell an entry's own error from one that spilled over from the entry above.
 */
export function plainlyInvalid(entry: Entry): boolean {
  const v = withoutComment(entry.first);
  if (v === '') return false;
  if (BLOCK_WITH_TEXT.test(v)) return true;
  const c = v[0]!;
  if ('*&!@`%'.includes(c)) return true;
  if (c === '[') return !v.endsWith(']');
  if (c === '{') return !v.endsWith('}');
  if (c === '"' || c === "'") {
    const close = closingQuote(v, 0);
    return close > 0 && close < v.length - 1; // text after the closing quote on the same line
  }
  if ((c === '-' || c === '?') && (v.length === 1 || v[1] === ' ' || v[1] === '\t')) return true;
  return hasColonSpace(v);
}

/** A plain value without a trailing ` # comment`. */
function withoutComment(text: string): string {
  const c = text[0];
  if (c === '"' || c === "'") return text;
  for (let i = text.indexOf('#'); i >= 0; i = text.indexOf('#', i + 1)) if (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t') return text.slice(0, i).trimEnd();
  return text;
}

/** `[a, "b, c", d]` as a list of texts, or null when it is not one balanced flow list. */
function flowList(text: string): string[] | null {
  if (!text.endsWith(']')) return null;
  const items: string[] = [];
  let start = 1;
  for (let i = 1; i < text.length - 1; i++) {
    const c = text[i];
    if ((c === '"' || c === "'") && text.slice(start, i).trim() === '') {
      const close = closingQuote(text, i);
      if (close < 0 || close >= text.length - 1) return null;
      i = close;
    } else if (c === '[' || c === ']' || c === '{' || c === '}') {
      return null; // nested collections: leave the whole value as text
    } else if (c === ',') {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start, text.length - 1));
  return items.map((item) => unquote(item.trim())).filter((item) => item !== '');
}

function unquote(text: string): string {
  const q = text[0];
  if ((q === '"' || q === "'") && text.length >= 2 && text.endsWith(q)) {
    const inner = text.slice(1, -1);
    return q === '"' ? unescapeDouble(inner) : inner.replaceAll("''", "'");
  }
  return text;
}

/** The lines under an empty `key:`: a list, a mapping, or folded text. */
function block(lines: readonly string[], depth: number): unknown {
  const content = lines.filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  const head = content[0];
  if (head === undefined) return null;
  const items = dedent(lines);
  const first = items.find((line) => line.trim() !== '' && !line.startsWith('#'))!;
  if (depth >= MAX_FRONTMATTER_DEPTH) return fold(content.map((line) => line.trim()));
  if (first === '-' || first.startsWith('- ') || first.startsWith('-\t')) return list(items, depth);
  if (keyLine(first)) return mapping(items, depth);
  return fold(items);
}

/** Nested `key: value` lines (already dedented) as a mapping; a repeated key keeps its last value. */
function mapping(lines: readonly string[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of splitEntries(lines).entries) assign(out, entry.key, rawValue(entry.first, entry.more, depth + 1));
  return out;
}

/** `- item` lines (already dedented); an item's more-indented lines belong to it. */
function list(lines: readonly string[], depth: number): unknown[] {
  const out: unknown[] = [];
  let item: string[] | null = null;
  const flush = () => {
    if (item === null) return;
    const [head, ...rest] = item;
    const text = head!.slice(1).trim();
    // `- name: x` followed by `  type: y`: a mapping item.
    out.push(text !== '' && keyLine(text) ? mapping([text, ...dedent(rest)], depth) : rawValue(text, rest, depth + 1));
  };
  for (const line of lines) {
    if (line === '-' || line.startsWith('- ') || line.startsWith('-\t')) {
      flush();
      item = [line];
    } else if (item) {
      item.push(line);
    }
  }
  flush();
  return out;
}

function blockScalar(lines: readonly string[], literal: boolean, indicators: string): string {
  const body = dedent(lines);
  let text = literal ? body.join('\n') : fold(body);
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  text = text.slice(0, end);
  if (indicators.includes('-')) return text;
  if (indicators.includes('+')) return `${text}\n`;
  return text === '' ? '' : `${text}\n`;
}

/** Lines with their common indentation removed (blank lines do not count). */
function dedent(lines: readonly string[]): string[] {
  let indent = Infinity;
  for (const line of lines) {
    if (line.trim() === '') continue;
    let n = 0;
    while (line[n] === ' ' || line[n] === '\t') n++;
    if (n < indent) indent = n;
  }
  if (indent === Infinity) return lines.map(() => '');
  return lines.map((line) => line.slice(Math.min(indent, line.length)).replace(/^[ \t]+$/, ''));
}

/** YAML folding: lines joined with a space, a blank line kept as a line break. */
function fold(lines: readonly string[]): string {
  let out = '';
  let pendingBreaks = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') {
      if (out !== '') pendingBreaks++;
      continue;
    }
    if (out !== '') out += pendingBreaks > 0 ? '\n'.repeat(pendingBreaks) : ' ';
    pendingBreaks = 0;
    out += line;
  }
  return out;
}

/** Own-property assignment that is safe for keys such as __proto__. */
export function assign(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Why an entry's value is not valid YAML, and how to fix it, for the yaml_lenient warning. `yamlMessage` is
 * what the YAML library said about this entry.
 */
export function diagnose(entry: Entry, value: unknown, yamlMessage: string): string {
  const v = entry.first;
  const fixed = typeof value === 'string' && value !== '' ? `${entry.key}: ${preview(value)}` : null;
  const quoteIt = fixed ? `; quote it: ${fixed}` : '';
  const starts = (what: string, reads: string) => `an unquoted value cannot start with "${what}" (YAML reads ${reads})${quoteIt}`;
  if (BLOCK_WITH_TEXT.test(v)) {
    return `text follows the block indicator "${v[0]}" on the same line; move the text to the next lines, indented${fixed ? `, or quote it: ${fixed}` : ''}`;
  }
  const second = v[1];
  switch (v[0]) {
    case '*':
      return starts('*', 'an alias');
    case '&':
      return starts('&', 'an anchor');
    case '!':
      return starts('!', 'a tag');
    case '@':
    case '`':
      return starts(v[0], 'a reserved character');
    case '%':
      return starts('%', 'a directive');
    case '[':
      return starts('[', 'a list');
    case '{':
      return starts('{', 'a mapping');
    case '"':
    case "'":
      return `the quoted value is not closed where the value ends, or text follows its closing quote${fixed ? `; write it as ${fixed}` : ''}`;
    case '-':
    case '?':
      if (second === undefined || second === ' ' || second === '\t') return starts(`${v[0]} `, v[0] === '-' ? 'a list item' : 'a complex key');
      break;
    default:
      break;
  }
  if (v === '') return `the indented lines under it are not valid YAML (${yamlMessage}); check their indentation and quote values that contain ": "`;
  const unindented = entry.more.findIndex((line) => line.trim() !== '' && line[0] !== ' ' && line[0] !== '\t' && line[0] !== '#');
  if (unindented >= 0) {
    return `its value goes on at line ${entry.line + unindented + 3} without indentation; indent the continuation lines${quoteIt ? `, or${quoteIt.slice(1)}` : ''}`;
  }
  if (hasColonSpace(withoutComment(v))) return `an unquoted value cannot contain ": " or end with ":" (YAML reads a nested key)${quoteIt}`;
  return `${yamlMessage}${quoteIt}`;
}

/** A `: ` (or a `:` ending the text) inside a plain value, which YAML reads as a key separator. */
function hasColonSpace(text: string): boolean {
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) if (i + 1 === text.length || text[i + 1] === ' ' || text[i + 1] === '\t') return true;
  return false;
}

/** A value as a double-quoted YAML string, shortened for a message. */
function preview(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 57)}…` : value;
  return JSON.stringify(short.replace(/\s+/g, ' '));
}
