// Bounds of the frontmatter, checked in one linear pass before the YAML library parses anything.
import { Lexer } from 'yaml';
import {
  MAX_FRONTMATTER_CHARS,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_KEYS,
  MAX_FRONTMATTER_LINES,
  MAX_FRONTMATTER_VALUES,
} from './limits.js';
import { Refusal } from './types.js';

const CONTENT = 'skill_md_content';

/** Nesting (estimated from indentation and indicators) at which the text is refused before YAML parses it. */
const DEPTH_GUARD = 4 * MAX_FRONTMATTER_DEPTH;

/**
 * One pass of YAML's own lexer (linear, not recursive), stopping at the first bound exceeded: keys (every
 * `:` indicator), values (scalars, list items, collections), flow nesting (exact) and block nesting (an
 * over-estimate from indentation, guarded loosely here and checked exactly on the parsed document); then
 * the size in characters and lines. (Keys first, so that a file of 12,000 keys is refused for its keys.)
 */
export function checkShape(yamlText: string): void {
  let keys = 0;
  let values = 0;
  let flow = 0;
  let indicators = 0; // block indicators (- ?, and a first :) on the current line
  let colon = false;
  let indent = 0;
  let lineStart = true;
  const indents: number[] = []; // indentation of the open block levels, increasing
  let scalarSource = false; // the token after a plain-scalar marker is the scalar's text
  for (const token of new Lexer().lex(yamlText)) {
    if (scalarSource) {
      scalarSource = false;
      if (token !== '') values++; // an empty scalar (`a: ,`) is no value
      if (values > MAX_FRONTMATTER_VALUES) throw tooManyValues();
      continue;
    }
    const c = token[0];
    if (c === '\n' || c === '\r') {
      lineStart = true;
      indent = 0;
      indicators = 0;
      colon = false;
      continue;
    }
    if (lineStart && c === ' ') {
      indent = token.length;
      continue;
    }
    if (c === '#' || c === '\u0002' || c === '\u0018' || c === '\uFEFF') continue; // comments, document markers
    if (lineStart) {
      lineStart = false;
      if (flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
      }
    }
    switch (c) {
      case ':':
        keys++;
        // A line's first `:` may open a mapping inside a `- ` item; more of them on one line do not nest
        // (YAML refuses `a: b: c`), so a colon-heavy text is not taken for deep nesting.
        if (flow === 0 && !colon) indicators++;
        colon = true;
        break;
      case '\u001f':
        scalarSource = true;
        break;
      case ' ':
      case '\t':
        break;
      default:
        // Anything else is a node or the cost of one: list items, brackets and commas, quoted and block
        // scalars, aliases, anchors, tags, stray characters (each an error).
        values++;
        if (c === '[' || c === '{') {
          flow++;
          if (flow > MAX_FRONTMATTER_DEPTH) throw tooDeep(true);
        } else if ((c === ']' || c === '}') && flow > 0) {
          flow--;
        } else if ((c === '-' || c === '?') && token.length === 1 && flow === 0) {
          indicators++;
        }
        break;
    }
    if (keys > MAX_FRONTMATTER_KEYS) throw tooManyKeys();
    if (values > MAX_FRONTMATTER_VALUES) throw tooManyValues();
    if (indents.length + indicators + flow > DEPTH_GUARD) throw tooDeep();
  }
  if (yamlText.length > MAX_FRONTMATTER_CHARS) {
    throw new Refusal(
      'frontmatter_too_large',
      CONTENT,
      `frontmatter must be at most ${MAX_FRONTMATTER_CHARS} characters (it has ${yamlText.length})`,
    );
  }
  let lineCount = yamlText === '' || yamlText.endsWith('\n') ? 0 : 1; // the text ends with its last line's \n
  for (let i = yamlText.indexOf('\n'); i >= 0; i = yamlText.indexOf('\n', i + 1)) lineCount++;
  if (lineCount > MAX_FRONTMATTER_LINES) {
    throw new Refusal(
      'frontmatter_too_large',
      CONTENT,
      `frontmatter must be at most ${MAX_FRONTMATTER_LINES} lines (it has ${lineCount})`,
    );
  }
}

export const tooManyKeys = () =>
  new Refusal('too_many_keys', CONTENT, `frontmatter must have at most ${MAX_FRONTMATTER_KEYS} keys`);

export const tooManyValues = () =>
  new Refusal('too_many_values', CONTENT, `frontmatter must have at most ${MAX_FRONTMATTER_VALUES} values`);

export const tooDeep = (flow = false) =>
  new Refusal(
    'too_deep',
    CONTENT,
    `frontmatter must not nest more than ${MAX_FRONTMATTER_DEPTH} levels deep${flow ? ' (in YAML, an unclosed [ or { holds all that follows)' : ''}`,
  );
