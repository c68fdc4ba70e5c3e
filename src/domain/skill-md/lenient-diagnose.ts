// The fallback reader, part 3 of 3 (lenient-entries.ts has the whole picture): whether an entry's value is
// plainly not valid YAML, and why, with the fix, for the yaml_lenient warning.
import { closingQuote, type Entry } from './lenient-entries.js';
import { BLOCK_WITH_TEXT } from './lenient-values.js';

/** What YAML reads in a value that starts with one of these characters, so an unquoted value cannot. */
const INDICATORS = new Map([
  ['*', 'an alias'],
  ['&', 'an anchor'],
  ['!', 'a tag'],
  ['@', 'a reserved character'],
  ['`', 'a reserved character'],
  ['%', 'a directive'],
  ['[', 'a list'],
  ['{', 'a mapping'],
]);

/**
 * Whether an entry's first line alone shows that its value is not valid YAML: the common mistakes that
 * diagnose() names. Used to tell an entry's own error from one that spilled over from the entry above.
 */
export function plainlyInvalid(entry: Entry): boolean {
  const v = withoutComment(entry.first);
  if (v === '') return false;
  if (BLOCK_WITH_TEXT.test(v)) return true;
  const c = v[0]!;
  if (c === '[') return !v.endsWith(']');
  if (c === '{') return !v.endsWith('}');
  if (INDICATORS.has(c)) return true;
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
  for (let i = text.indexOf('#'); i >= 0; i = text.indexOf('#', i + 1))
    if (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t') return text.slice(0, i).trimEnd();
  return text;
}

/**
 * Why an entry's value is not valid YAML, and how to fix it, for the yaml_lenient warning. `yamlMessage` is
 * what the YAML library said about this entry.
 */
export function diagnose(entry: Entry, value: unknown, yamlMessage: string): string {
  const v = entry.first;
  const fixed = typeof value === 'string' && value !== '' ? `${entry.key}: ${preview(value)}` : null;
  const quoteIt = fixed ? `; quote it: ${fixed}` : '';
  const starts = (what: string, reads: string) =>
    `an unquoted value cannot start with "${what}" (YAML reads ${reads})${quoteIt}`;
  if (BLOCK_WITH_TEXT.test(v)) {
    return `text follows the block indicator "${v[0]}" on the same line; move the text to the next lines, indented${fixed ? `, or quote it: ${fixed}` : ''}`;
  }
  const second = v[1];
  const reads = INDICATORS.get(v[0]!);
  if (reads !== undefined) return starts(v[0]!, reads);
  switch (v[0]) {
    case '"':
    case "'":
      return `the quoted value is not closed where the value ends, or text follows its closing quote${fixed ? `; write it as ${fixed}` : ''}`;
    case '-':
    case '?':
      if (second === undefined || second === ' ' || second === '\t')
        return starts(`${v[0]} `, v[0] === '-' ? 'a list item' : 'a complex key');
      break;
    default:
      break;
  }
  if (v === '')
    return `the indented lines under it are not valid YAML (${yamlMessage}); check their indentation and quote values that contain ": "`;
  const unindented = entry.more.findIndex(
    (line) => line.trim() !== '' && line[0] !== ' ' && line[0] !== '\t' && line[0] !== '#',
  );
  if (unindented >= 0) {
    return `its value goes on at line ${entry.line + unindented + 3} without indentation; indent the continuation lines${quoteIt ? `, or${quoteIt.slice(1)}` : ''}`;
  }
  if (hasColonSpace(withoutComment(v)))
    return `an unquoted value cannot contain ": " or end with ":" (YAML reads a nested key)${quoteIt}`;
  return `${yamlMessage}${quoteIt}`;
}

/** A `: ` (or a `:` ending the text) inside a plain value, which YAML reads as a key separator. */
function hasColonSpace(text: string): boolean {
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1))
    if (i + 1 === text.length || text[i + 1] === ' ' || text[i + 1] === '\t') return true;
  return false;
}

/** A value as a double-quoted YAML string, shortened for a message. */
function preview(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 57)}…` : value;
  return JSON.stringify(short.replace(/\s+/g, ' '));
}
