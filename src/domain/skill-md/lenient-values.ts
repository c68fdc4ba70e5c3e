// The fallback reader, part 2 of 3 (lenient-entries.ts has the whole picture): an entry's value, read as
// text the way a line reader would (block scalars, simple lists, nested `key: value` lines, flow lists,
// quoted values) with YAML's folding and dedenting, nested at most MAX_FRONTMATTER_DEPTH deep; and
// assign(), the own-property assignment that is safe for __proto__.
import { closingQuote, keyLine, splitEntries, unescapeDouble } from './lenient-entries.js';
import { MAX_FRONTMATTER_DEPTH } from './limits.js';

const BLOCK_HEADER = /^([|>])([1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?$/;
export const BLOCK_WITH_TEXT = /^([|>])([1-9][+-]?|[+-][1-9]?)?[ \t]+([^ \t#].*)$/;

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
  const inner = (to: number) =>
    q === '"' ? unescapeDouble(text.slice(1, to)) : fold(text.slice(1, to).replaceAll("''", "'").split('\n'));
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
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
