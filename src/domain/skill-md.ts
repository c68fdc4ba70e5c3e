// Parses and validates a SKILL.md (YAML frontmatter + markdown body) against the Agent Skills rules.
// Pure: no I/O, never throws; hard rule violations return ok:false, soft findings become warnings.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

export interface SkillDocument {
  name: string;
  description: string;
  license: string | null;
  compatibility: string | null;
  domain: string | null;
  tags: string[]; // trimmed, de-duplicated (case-insensitive, first spelling kept), order kept
  allowedTools: string[];
  metadata: Record<string, unknown>;
  body: string; // the markdown after the closing --- line (line endings normalised to \n)
}

export type SkillParseResult =
  | { ok: true; skill: SkillDocument; warnings: string[] }
  | { ok: false; field: string; message: string };

const CONTENT = 'skill_md_content';
const NO_FRONTMATTER = 'SKILL.md must start with YAML frontmatter between --- lines';
const NAME_RULE = 'frontmatter.name must be 1-64 characters of a-z, 0-9 and -, without leading, trailing or doubled -';
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KNOWN_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'tags', 'domain']);
// yaml parsing is super-linear on some hostile inputs, and real frontmatter is a few hundred bytes.
const MAX_FRONTMATTER_CHARS = 50_000;
const MAX_DEPTH = 32;
const MAX_UNKNOWN_FIELD_WARNINGS = 20;
const LONG_BODY_LINES = 500;
const LONG_BODY_CHARS = 50_000;

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;
// Tags and comments only: `a < b` and autolinks like <https://x> have no whitespace, / or > after the name.
const HTML = /<!--|<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/;
// The lookbehind anchors each attempt at the start of a backtick run, which keeps the scan linear.
const INLINE_CODE = /(?<!`)(`+)[^`]+\1(?!`)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INJECTION: Array<[RegExp, string]> = [
  [/ignore\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above)\s+instructions/i, 'ignore previous instructions'],
  [/disregard\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above)/i, 'disregard previous'],
  [/\byou\s+are\s+now\b/i, 'you are now'],
  [/forget\s+(?:all\s+)?(?:your|previous)\s+instructions/i, 'forget your instructions'],
  [/reveal\s+(?:your\s+)?(?:the\s+)?system\s+prompt/i, 'reveal system prompt'],
  [/system\s+prompt\s*:/i, 'system prompt:'],
];

/** Thrown internally for a rule violation; parseSkillMd turns it into an ok:false result. */
class FieldError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

type Fields = Record<string, unknown>;

export function parseSkillMd(content: string): SkillParseResult {
  try {
    return parse(content);
  } catch (err) {
    if (err instanceof FieldError) return { ok: false, field: err.field, message: err.message };
    // Defensive: anything unexpected (e.g. stack exhaustion) is still a result, never an exception.
    return { ok: false, field: CONTENT, message: `SKILL.md could not be parsed: ${firstLine(err)}` };
  }
}

function parse(content: string): SkillParseResult {
  if (typeof content !== 'string') throw new FieldError(CONTENT, NO_FRONTMATTER);
  const { yamlText, body } = splitFrontmatter(content);
  const fm = readYaml(yamlText);

  const name = own(fm, 'name');
  if (name === undefined || name === null) throw new FieldError('frontmatter.name', 'frontmatter.name is required');
  if (typeof name !== 'string' || name.length > 64 || !NAME_PATTERN.test(name)) throw new FieldError('frontmatter.name', NAME_RULE);

  const description = own(fm, 'description');
  if (description === undefined || description === null) throw new FieldError('frontmatter.description', 'frontmatter.description is required');
  const desc = text(description, 'frontmatter.description', 1, 1024);

  const metadata = own(fm, 'metadata') ?? {};
  if (!isPlainObject(metadata)) throw new FieldError('frontmatter.metadata', 'frontmatter.metadata must be a mapping of keys to values');
  const tags = pick(fm, metadata, 'tags');
  const domain = pick(fm, metadata, 'domain');

  const skill: SkillDocument = {
    name,
    description: desc,
    license: optionalText(own(fm, 'license'), 'frontmatter.license', 200),
    compatibility: optionalText(own(fm, 'compatibility'), 'frontmatter.compatibility', 500),
    domain: domain.value === undefined || domain.value === null ? null : text(domain.value, domain.field, 1, 100),
    tags: readList(tags.value, tags.field, ',', 20, 50, true),
    allowedTools: readList(own(fm, 'allowed-tools'), 'frontmatter.allowed-tools', /\s+/, 100, 200, false),
    metadata,
    body,
  };
  return { ok: true, skill, warnings: collectWarnings(fm, content, body) };
}

function splitFrontmatter(content: string): { yamlText: string; body: string } {
  const normalised = content.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const open = /^---[ \t]*\n/.exec(normalised);
  if (!open) throw new FieldError(CONTENT, NO_FRONTMATTER);
  const rest = normalised.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) throw new FieldError(CONTENT, NO_FRONTMATTER);
  const after = rest.slice(close.index + close[0].length);
  return { yamlText: rest.slice(0, close.index), body: after.startsWith('\n') ? after.slice(1) : after };
}

function readYaml(yamlText: string): Fields {
  if (yamlText.length > MAX_FRONTMATTER_CHARS) {
    throw new FieldError(CONTENT, `frontmatter must be at most ${MAX_FRONTMATTER_CHARS} characters`);
  }
  const lines = new LineCounter();
  // logLevel 'error' keeps yaml from calling process.emitWarning (a side effect).
  const doc = parseDocument(yamlText, { schema: 'core', uniqueKeys: true, prettyErrors: false, lineCounter: lines, logLevel: 'error' });
  const error = doc.errors[0];
  if (error) {
    // +1 for the opening --- line, so the number matches the SKILL.md file.
    const line = lines.linePos(error.pos[0]).line + 1;
    throw new FieldError(CONTENT, `frontmatter is not valid YAML (line ${line}): ${firstLine(error)}`);
  }
  // Collection keys make toJS stringify recursively (super-linear), and frontmatter never needs them.
  checkShape(doc.contents, 0);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    throw new FieldError(CONTENT, `frontmatter could not be read: ${firstLine(err)}`);
  }
  if (!isPlainObject(data)) throw new FieldError(CONTENT, 'frontmatter must be a YAML mapping of fields (key: value)');
  return data;
}

function checkShape(node: unknown, depth: number): void {
  if (depth > MAX_DEPTH) throw new FieldError(CONTENT, `frontmatter is nested more than ${MAX_DEPTH} levels deep`);
  if (isPair(node)) {
    if (node.key !== null && !isScalar(node.key)) throw new FieldError(CONTENT, 'frontmatter keys must be plain scalars');
    checkShape(node.value, depth + 1);
  } else if (isMap(node) || isSeq(node)) {
    for (const item of node.items) checkShape(item, depth + 1);
  }
}

/** A required string, trimmed, with its length bounds. */
function text(value: unknown, field: string, min: number, max: number): string {
  if (typeof value !== 'string') throw new FieldError(field, `${field} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length < min || trimmed.length > max) throw new FieldError(field, `${field} must be ${min}-${max} characters`);
  return trimmed;
}

/** An optional string: absent, null or blank is null. */
function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new FieldError(field, `${field} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw new FieldError(field, `${field} must be at most ${max} characters`);
  return trimmed === '' ? null : trimmed;
}

/** A list given as an array of strings or as one delimited string; trimmed, blanks from the string form dropped. */
function readList(value: unknown, field: string, separator: string | RegExp, maxItems: number, maxLength: number, dedupe: boolean): string[] {
  if (value === undefined || value === null) return [];
  let items: unknown[];
  if (typeof value === 'string') items = value.split(separator).filter((item) => item.trim() !== '');
  else if (Array.isArray(value)) items = value;
  else throw new FieldError(field, `${field} must be a list of strings or a ${separator === ',' ? 'comma' : 'space'}-separated string`);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') throw new FieldError(field, `${field} must contain only strings`);
    const trimmed = item.trim();
    if (trimmed.length < 1 || trimmed.length > maxLength) throw new FieldError(field, `each entry of ${field} must be 1-${maxLength} characters`);
    if (dedupe && seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    out.push(trimmed);
    if (out.length > maxItems) throw new FieldError(field, `${field} must have at most ${maxItems} entries`);
  }
  return out;
}

/** tags and domain may sit at the top level or inside metadata; the top level wins. */
function pick(fm: Fields, metadata: Fields, key: string): { value: unknown; field: string } {
  const top = own(fm, key);
  if (top !== undefined && top !== null) return { value: top, field: `frontmatter.${key}` };
  return { value: own(metadata, key), field: `frontmatter.metadata.${key}` };
}

function collectWarnings(fm: Fields, content: string, body: string): string[] {
  const warnings: string[] = [];
  const unknown = Object.keys(fm).filter((key) => !KNOWN_FIELDS.has(key));
  for (const key of unknown.slice(0, MAX_UNKNOWN_FIELD_WARNINGS)) warnings.push(`unknown frontmatter field ${JSON.stringify(key)}`);
  if (unknown.length > MAX_UNKNOWN_FIELD_WARNINGS) warnings.push(`${unknown.length - MAX_UNKNOWN_FIELD_WARNINGS} more unknown frontmatter fields`);

  const lineCount = body === '' ? 0 : body.split('\n').length - (body.endsWith('\n') ? 1 : 0);
  if (body.trim() === '') warnings.push('the body is empty: add instructions after the frontmatter');
  else if (lineCount > LONG_BODY_LINES || body.length > LONG_BODY_CHARS) {
    warnings.push(`the body is long (${lineCount} lines, ${body.length} characters); keep SKILL.md under ${LONG_BODY_LINES} lines and move detail into referenced files`);
  }

  const invisible = INVISIBLE.exec(content.replace(/^\uFEFF/, ''));
  if (invisible) {
    const code = invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    warnings.push(`the content contains invisible Unicode characters (first: U+${code}), which can hide text from reviewers`);
  }
  if (HTML.test(proseOnly(body))) warnings.push('the body contains HTML (tags or comments) outside code');
  const injection = INJECTION.find(([pattern]) => pattern.test(content));
  if (injection) warnings.push(`the content contains text that looks like a prompt injection ("${injection[1]}")`);
  return warnings;
}

/** The body without fenced code blocks and inline code spans, where HTML is legitimate. */
function proseOnly(body: string): string {
  const prose: string[] = [];
  let fence: string | null = null;
  for (const line of body.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) fence = marker;
      else prose.push(line.replace(INLINE_CODE, ''));
    } else if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
      fence = null;
    }
  }
  return prose.join('\n');
}

function own(object: Fields, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? '').replace(/:$/, '').slice(0, 200);
}
