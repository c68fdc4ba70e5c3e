// Reading the frontmatter: split it off, bound its shape in one linear pass, parse it as YAML, and when that
// fails read it leniently (lenient-*.ts), field by field. The YAML library is only handed text whose key
// count, value count and nesting are within the limits, and never with its quadratic duplicate-key check
// (uniqueKeys: false; duplicates are found here, with a hash set).
import { isMap, type Document, type YAMLError } from 'yaml';
import { Converter, Lines, parseYaml, type Fields } from './convert.js';
import { diagnose, plainlyInvalid } from './lenient-diagnose.js';
import { splitEntries, type Entry } from './lenient-entries.js';
import { assign, rawValue } from './lenient-values.js';
import { checkShape } from './shape.js';
import { Refusal, type WarningList } from './types.js';

export type { Fields } from './convert.js';

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
    if (!isMap(root))
      throw new Refusal('not_a_mapping', CONTENT, 'frontmatter must be a YAML mapping of fields (key: value)');
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
    if (
      !entry?.first.startsWith('#') ||
      entry.more.some((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    )
      continue;
    const text = entry.first.replace(/^#+/, '').trim();
    if (text === '') continue;
    fields[key] = text;
    warnings.add(
      'yaml_lenient',
      `frontmatter.${key} (line ${entry.line + 2}) starts with "#", which YAML reads as a comment, leaving it empty; the text after it is used: quote it: ${key}: ${JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text)}`,
    );
  }
}

// ---- the lenient reader ---------------------------------------------------------------------------------------

/** Rounds of re-parsing the entries without errors together before reading the rest as text. */
const LENIENT_ROUNDS = 3;

/**
 * Frontmatter that is not valid YAML, read field by field. The entries the YAML errors point at are read as
 * text (lenient-values.ts), with a yaml_lenient warning each saying what is wrong and how to fix it; the others are
 * parsed as YAML together (again, in case an error spilled over from a neighbour), so valid fields keep
 * their YAML meaning. At most LENIENT_ROUNDS + 1 YAML parses, each of a part of the text.
 */
function readLeniently(yamlText: string, whole: Document.Parsed, warnings: WarningList): Fields {
  const errors: readonly YAMLError[] = whole.errors;
  const allLines = yamlText.split('\n');
  const lines = new Lines(yamlText);
  const { entries, stray } = splitEntries(allLines);
  if (entries.length === 0)
    throw new Refusal('not_a_mapping', CONTENT, 'frontmatter must be a YAML mapping of fields (key: value)');
  for (const index of stray.slice(0, 3)) {
    warnings.add(
      'yaml_lenient',
      `frontmatter line ${index + 2} is not a "key: value" line and belongs to no field; it is ignored`,
    );
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
      warnings.add(
        'yaml_lenient',
        `frontmatter.${entry.key} (line ${line}) is not valid YAML: ${diagnose(entry, value, said)}`,
      );
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

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/:$/, '').slice(0, 200);
}
