// Reading the frontmatter: split it off, bound its shape in one linear pass, parse it as YAML, and when that
// fails read it leniently (lenient.ts), field by field. The YAML library is only handed text whose key
// count, value count and nesting are within the limits, and never with its quadratic duplicate-key check
// (uniqueKeys: false; duplicates are found here, with a hash set).
import { isAlias, isMap, isPair, isScalar, isSeq, Lexer, parseDocument, type Document, type YAMLError } from 'yaml';
import {
  MAX_FRONTMATTER_CHARS,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_EXPANDED_CHARS,
  MAX_FRONTMATTER_KEYS,
  MAX_FRONTMATTER_LINES,
  MAX_FRONTMATTER_VALUES,
} from './limits.js';
import { assign, diagnose, plainlyInvalid, rawValue, splitEntries, type Entry } from './lenient.js';
import { Refusal, type WarningList } from './types.js';

export type Fields = Record<string, unknown>;

const CONTENT = 'skill_md_content';
export const NO_FRONTMATTER = 'SKILL.md must start with YAML frontmatter between --- lines';

/** The text between the opening and closing --- lines, and the body after them (line endings normalised). */
export function splitFrontmatter(content: string): { yamlText: string; body: string } {
  const normalised = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const open = /^---[ \t]*\n/.exec(normalised);
  if (!open) throw new Refusal('no_frontmatter', CONTENT, NO_FRONTMATTER);
  const rest = normalised.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) throw new Refusal('no_frontmatter', CONTENT, `${NO_FRONTMATTER} (no closing --- line)`);
  const after = rest.slice(close.index + close[0].length);
  return { yamlText: rest.slice(0, close.index), body: after.startsWith('\n') ? after.slice(1) : after };
}

/** The frontmatter's fields; warnings for what is not valid YAML. Throws a Refusal. */
export function readFrontmatter(yamlText: string, warnings: WarningList): Fields {
  checkShape(yamlText);
  const doc = parseYaml(yamlText);
  let fields: Fields;
  if (doc.errors.length === 0) {
    const root = doc.contents;
    if (!isMap(root)) throw new Refusal('not_a_mapping', CONTENT, 'frontmatter must be a YAML mapping of fields (key: value)');
    const lines = new Lines(yamlText);
    fields = new Converter(warnings, (offset) => lines.at(offset)).node(root, 1).value as Fields;
  } else {
    fields = readLeniently(yamlText, doc, warnings);
  }
  readCommentValues(yamlText, fields, warnings);
  return fields;
}

/**
 * `description: # Title` is valid YAML for an empty description (# starts a comment), but a line reader
 * takes the text, and the author meant it: for name and description, the text is used, with a warning.
 */
function readCommentValues(yamlText: string, fields: Fields, warnings: WarningList): void {
  if (!['name', 'description'].some((key) => Object.hasOwn(fields, key) && fields[key] === null)) return;
  const { entries } = splitEntries(yamlText.split('\n'));
  for (const key of ['name', 'description']) {
    if (!Object.hasOwn(fields, key) || fields[key] !== null) continue;
    const entry = entries.findLast((e: Entry) => e.key === key);
    if (!entry?.first.startsWith('#') || entry.more.some((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))) continue;
    const text = entry.first.replace(/^#+/, '').trim();
    if (text === '') continue;
    fields[key] = text;
    warnings.add(
      'yaml_lenient',
      `frontmatter.${key} (line ${entry.line + 2}) starts with "#", which YAML reads as a comment, leaving it empty; the text after it is used: quote it: ${key}: ${JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text)}`,
    );
  }
}

// ---- bounds, before any YAML parsing --------------------------------------------------------------------

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
    if (keys > MAX_FRONTMATTER_KEYS) {
      throw new Refusal('too_many_keys', CONTENT, `frontmatter must have at most ${MAX_FRONTMATTER_KEYS} keys`);
    }
    if (values > MAX_FRONTMATTER_VALUES) throw tooManyValues();
    if (indents.length + indicators + flow > DEPTH_GUARD) throw tooDeep();
  }
  if (yamlText.length > MAX_FRONTMATTER_CHARS) {
    throw new Refusal('frontmatter_too_large', CONTENT, `frontmatter must be at most ${MAX_FRONTMATTER_CHARS} characters (it has ${yamlText.length})`);
  }
  let lineCount = yamlText === '' || yamlText.endsWith('\n') ? 0 : 1; // the text ends with its last line's \n
  for (let i = yamlText.indexOf('\n'); i >= 0; i = yamlText.indexOf('\n', i + 1)) lineCount++;
  if (lineCount > MAX_FRONTMATTER_LINES) {
    throw new Refusal('frontmatter_too_large', CONTENT, `frontmatter must be at most ${MAX_FRONTMATTER_LINES} lines (it has ${lineCount})`);
  }
}

const tooManyValues = () => new Refusal('too_many_values', CONTENT, `frontmatter must have at most ${MAX_FRONTMATTER_VALUES} values`);

const tooDeep = (flow = false) =>
  new Refusal(
    'too_deep',
    CONTENT,
    `frontmatter must not nest more than ${MAX_FRONTMATTER_DEPTH} levels deep${flow ? ' (in YAML, an unclosed [ or { holds all that follows)' : ''}`,
  );

// ---- YAML --------------------------------------------------------------------------------------------------

function parseYaml(text: string): Document.Parsed {
  // Errors are plain data here: without stack traces, a document with many errors stays cheap.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // logLevel 'error' keeps yaml from calling process.emitWarning (a side effect).
    return parseDocument(text, { schema: 'core', uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

interface Converted {
  value: unknown;
  /** Characters (plus one per node) the value stands for once aliases are expanded. */
  weight: number;
  /** Nesting of collections inside, 0 for a scalar. */
  height: number;
}

/**
 * A parsed YAML node as plain data. Scalars that YAML reads as numbers or booleans are kept as written
 * (`version: 1.0` is "1.0", as the Agent Skills reference reads it); null stays null. An alias shares the
 * anchored value, and the frontmatter's size with aliases expanded is bounded. A repeated key keeps its last
 * value, with a warning; a key that is a collection is left out, with a warning.
 */
class Converter {
  private keys = 0;
  private values = 0;
  private readonly anchors = new Map<string, Converted>();

  constructor(
    private readonly warnings: WarningList,
    /** 1-based line of the SKILL.md file for an offset in the parsed text. */
    private readonly lineOf: (offset: number) => number,
  ) {}

  node(node: unknown, depth: number): Converted {
    const converted = this.convert(node, depth);
    if (converted.weight > MAX_FRONTMATTER_EXPANDED_CHARS) {
      throw new Refusal('frontmatter_too_large', CONTENT, `frontmatter must expand (through aliases) to at most ${MAX_FRONTMATTER_EXPANDED_CHARS} characters`);
    }
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) this.anchors.set(anchor, converted);
    return converted;
  }

  private convert(node: unknown, depth: number): Converted {
    this.count(0, 1);
    if (isScalar(node)) {
      const value = scalarText(node);
      return { value, weight: 1 + (value?.length ?? 0), height: 0 };
    }
    if (isAlias(node)) {
      const target = this.anchors.get(node.source);
      if (!target) {
        // `description: *Bold* text`: YAML reads an alias that nothing anchors; a line reader reads text.
        const text = `*${node.source}`;
        this.warnings.add(
          'yaml_lenient',
          `frontmatter line ${this.lineOf(node.range?.[0] ?? 0)}: ${JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}…` : text)} reads as an alias in YAML, but no anchor comes before it; it is read as text: quote it`,
        );
        return { value: text, weight: 1 + text.length, height: 0 };
      }
      if (depth - 1 + target.height > MAX_FRONTMATTER_DEPTH) throw tooDeep();
      return target;
    }
    if (depth > MAX_FRONTMATTER_DEPTH) throw tooDeep();
    if (isSeq(node)) {
      const out: unknown[] = [];
      let weight = 1;
      let height = 0;
      for (const item of node.items) {
        const c = this.node(item, depth + 1);
        out.push(c.value);
        weight += c.weight;
        height = Math.max(height, c.height);
        if (weight > MAX_FRONTMATTER_EXPANDED_CHARS) break; // node() refuses it
      }
      return { value: out, weight, height: height + 1 };
    }
    if (isMap(node)) {
      const out: Fields = {};
      const lines = new Map<string, number>();
      let weight = 1;
      let height = 0;
      for (const pair of node.items) {
        this.count(1, 0);
        if (!isPair(pair)) continue;
        const line = this.lineOf((pair.key as { range?: [number] } | null)?.range?.[0] ?? (pair.value as { range?: [number] } | null)?.range?.[0] ?? 0);
        const key = this.key(pair.key, depth);
        if (key === null) {
          this.warnings.add('yaml_lenient', `frontmatter line ${line}: a key that is a list or a mapping is not supported; the field is left out`);
          continue;
        }
        const c = this.node(pair.value, depth + 1);
        const seen = lines.get(key);
        if (seen !== undefined) {
          this.warnings.add(
            'yaml_lenient',
            `frontmatter line ${line}: the key ${JSON.stringify(key)} repeats line ${seen} (YAML keys must be unique); the last value is used, remove the other`,
          );
        }
        lines.set(key, line);
        assign(out, key, c.value);
        weight += key.length + c.weight;
        height = Math.max(height, c.height);
        if (weight > MAX_FRONTMATTER_EXPANDED_CHARS) break; // node() refuses it
      }
      return { value: out, weight, height: height + 1 };
    }
    return { value: null, weight: 1, height: 0 }; // an empty node
  }

  /** A key as text, or null for a collection key. */
  private key(node: unknown, depth: number): string | null {
    if (node === null || node === undefined) return '';
    if (isScalar(node)) return scalarText(node) ?? '';
    if (isAlias(node)) {
      const value = this.convert(node, depth).value;
      return typeof value === 'string' ? value : value === null ? '' : null;
    }
    return null;
  }

  private count(keys: number, values: number): void {
    this.keys += keys;
    this.values += values;
    if (this.keys > MAX_FRONTMATTER_KEYS) throw new Refusal('too_many_keys', CONTENT, `frontmatter must have at most ${MAX_FRONTMATTER_KEYS} keys`);
    if (this.values > MAX_FRONTMATTER_VALUES) throw tooManyValues();
  }

  /** Entry values, for the lenient reader: one converted top-level pair per entry. */
  pairValue(pair: unknown): unknown {
    if (!isPair(pair)) return null;
    this.count(1, 0);
    return this.node(pair.value, 2).value;
  }
}

function scalarText(node: { value: unknown; source?: string }): string | null {
  const { value } = node;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  return typeof node.source === 'string' ? node.source : String(value);
}

/** 1-based SKILL.md line numbers for offsets in the frontmatter (the opening --- is line 1). */
class Lines {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Index (0-based) of the frontmatter line holding `offset`. */
  index(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  at(offset: number): number {
    return this.index(offset) + 2;
  }
}

// ---- the lenient reader ---------------------------------------------------------------------------------------

/** Rounds of re-parsing the entries without errors together before reading the rest as text. */
const LENIENT_ROUNDS = 3;

/**
 * Frontmatter that is not valid YAML, read field by field. The entries the YAML errors point at are read as
 * text (lenient.ts), with a yaml_lenient warning each saying what is wrong and how to fix it; the others are
 * parsed as YAML together (again, in case an error spilled over from a neighbour), so valid fields keep
 * their YAML meaning. At most LENIENT_ROUNDS + 1 YAML parses, each of a part of the text.
 */
function readLeniently(yamlText: string, whole: Document.Parsed, warnings: WarningList): Fields {
  const errors: readonly YAMLError[] = whole.errors;
  const allLines = yamlText.split('\n');
  const lines = new Lines(yamlText);
  const { entries, stray } = splitEntries(allLines);
  if (entries.length === 0) throw new Refusal('not_a_mapping', CONTENT, 'frontmatter must be a YAML mapping of fields (key: value)');
  for (const index of stray.slice(0, 3)) {
    warnings.add('yaml_lenient', `frontmatter line ${index + 2} is not a "key: value" line and belongs to no field; it is ignored`);
  }

  // Which entry each line belongs to, to place YAML errors.
  const entryOfLine = new Int32Array(allLines.length).fill(-1);
  entries.forEach((entry, e) => {
    entryOfLine.fill(e, entry.line, entry.end);
  });

  const problems = new Map<number, YAMLError>(); // entry → first YAML error in it
  // An error that lands on an entry whose value looks fine, right under one whose value plainly is not
  // valid YAML, spilled over from that one (an unclosed [ or quote runs on): it is blamed on it.
  const plain = entries.map(plainlyInvalid);
  const blame = (errs: readonly YAMLError[], toLine: (offset: number) => number, order: readonly number[]) => {
    const position = new Map(order.map((e, p) => [e, p]));
    for (const error of errs) {
      let e = entryOfLine[toLine(error.pos[0])] ?? -1;
      if (e < 0) continue;
      const above = order[(position.get(e) ?? 0) - 1];
      if (!plain[e] && above !== undefined && plain[above]) e = above;
      if (!problems.has(e)) problems.set(e, error);
    }
  };
  const all = entries.map((_, e) => e);
  blame(errors, (offset) => lines.index(offset), all);
  // Any other entry the errors point at gets a second chance with the rest: its error may have spilled
  // over from further above.
  for (const e of [...problems.keys()]) if (!plain[e]) problems.delete(e);

  const values = new Array<unknown>(entries.length);
  let pending = all.filter((e) => !problems.has(e));
  for (let round = 0; round < LENIENT_ROUNDS && pending.length > 0; round++) {
    // The pending entries' lines, in order, as one document; chunk line i is frontmatter line at[i].
    const at: number[] = [];
    for (const e of pending) for (let i = entries[e]!.line; i < entries[e]!.end; i++) at.push(i);
    const chunk = at.map((i) => allLines[i]).join('\n');
    let doc: Document.Parsed;
    if (at.length === allLines.length) {
      doc = whole; // every line: the same text as the first parse
    } else {
      // Without an entry, the lexer may read the others differently (an unclosed quote no longer hides a
      // run of [), so the chunk is bounded again before YAML parses it.
      checkShape(chunk);
      doc = parseYaml(chunk);
    }
    const chunkLines = new Lines(chunk);
    const toLine = (offset: number) => at[chunkLines.index(offset)] ?? 0;
    const items = isMap(doc.contents) ? doc.contents.items : [];
    if (doc.errors.length === 0 && items.length === pending.length) {
      const local = new Converter(warnings, (offset) => toLine(offset) + 2);
      pending.forEach((e, i) => {
        values[e] = local.pairValue(items[i]);
      });
      pending = [];
      break;
    }
    const before = problems.size;
    blame(doc.errors, toLine, pending);
    if (problems.size === before) break; // errors that no entry owns: read the rest as text
    pending = pending.filter((e) => !problems.has(e));
  }
  const unread = new Set(pending);

  const fields: Fields = {};
  const seen = new Map<string, number>();
  entries.forEach((entry, e) => {
    let value = values[e];
    if (problems.has(e) || unread.has(e)) {
      value = rawValue(entry.first, entry.more, 2);
      const error = problems.get(e);
      const line = error ? lines.at(error.pos[0]) : entry.line + 2;
      const said = error ? firstLine(error.message) : 'not valid YAML';
      warnings.add('yaml_lenient', `frontmatter.${entry.key} (line ${line}) is not valid YAML: ${diagnose(entry, value, said)}`);
    }
    const previous = seen.get(entry.key);
    if (previous !== undefined) {
      warnings.add(
        'yaml_lenient',
        `frontmatter line ${entry.line + 2}: the key ${JSON.stringify(entry.key)} repeats line ${previous} (YAML keys must be unique); the last value is used, remove the other`,
      );
    }
    seen.set(entry.key, entry.line + 2);
    assign(fields, entry.key, value);
  });
  return fields;
}

export function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/:$/, '').slice(0, 200);
}
