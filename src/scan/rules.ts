// The rule set as data (rules/rules.yaml): read once, checked (every field, every family, every regex
// compiled), and given to the engines. The YAML sits beside the code so the build copies it to dist.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Severity } from './findings.js';

/** The families a rule belongs to (CONTRACT: security scanning). */
export const FAMILIES = [
  'remote-code-execution',
  'obfuscated-execution',
  'credential-access',
  'exfiltration',
  'reverse-shell',
  'persistence',
  'destructive-command',
  'executable-binary',
  'nested-archive',
  'prompt-injection',
  'hidden-instructions',
  'agent-safety-bypass',
  'malicious-dependency',
] as const;

export const SCOPES = ['shell', 'code', 'prose', 'comment'] as const;
export type Scope = (typeof SCOPES)[number];
const ENGINES = ['flow', 'bytes', 'text', 'manifest'] as const;
const SEVERITIES: readonly string[] = ['low', 'medium', 'high', 'critical'];

/** A file of a rule's example: its text, or its bytes in base64. */
export interface ExampleFile {
  path: string;
  content?: string;
  content_base64?: string;
}
/** An example: the text of one file of the rule's scope, one file, or several. */
export type Example = string | ExampleFile | ExampleFile[];

export interface Rule {
  id: string;
  family: string;
  severity: Severity;
  message: string;
  scopes: Scope[];
  engine: (typeof ENGINES)[number] | null;
  match: RegExp | null;
  also: RegExp[];
  inFile: RegExp[];
  unless: RegExp[];
  /** Severity when the destination is a vendor or unknown ('none': no finding). */
  destination: { vendor?: Severity | 'none'; unknown?: Severity | 'none' } | null;
  examples: { positive: Example[]; negative: Example[] };
}

export interface RuleSet {
  name: string;
  version: number;
  rules: Rule[];
  byId: Map<string, Rule>;
}

function fail(id: string, what: string): never {
  throw new Error(`scan rules: ${id}: ${what}`);
}

const regex = (id: string, source: unknown): RegExp => {
  if (typeof source !== 'string' || source === '') fail(id, 'a regex must be a non-empty string');
  // A quantified group of one quantified atom ((a+)+) backtracks without bound; the rule set has none.
  if (/\((?:\?:)?(?:\\.|\[[^\]]*\]|[^()\\])[+*]\)[+*{]/.test(source)) fail(id, `nested quantifier in ${source}`);
  return new RegExp(source, 'i');
};

const list = (id: string, value: unknown): RegExp[] =>
  value === undefined ? [] : Array.isArray(value) ? value.map((v) => regex(id, v)) : fail(id, 'expected a list');

function severity(id: string, value: unknown, none = false): Severity | 'none' {
  if (typeof value === 'string' && (SEVERITIES.includes(value) || (none && value === 'none'))) return value as Severity;
  return fail(id, `unknown severity ${String(value)}`);
}

function compile(raw: Record<string, unknown>): Rule {
  const id = typeof raw.id === 'string' ? raw.id : fail('?', 'a rule without an id');
  const family = String(raw.family);
  if (!(FAMILIES as readonly string[]).includes(family)) fail(id, `unknown family ${family}`);
  if (!id.startsWith(`${family}/`)) fail(id, 'the id starts with its family and a slash');
  const engine = raw.engine === undefined ? null : String(raw.engine);
  if (engine !== null && !(ENGINES as readonly string[]).includes(engine)) fail(id, `unknown engine ${engine}`);
  const scopes = (Array.isArray(raw.scope) ? raw.scope : raw.scope === undefined ? [] : [raw.scope]).map(String);
  for (const s of scopes) if (!(SCOPES as readonly string[]).includes(s)) fail(id, `unknown scope ${s}`);
  if (engine === null && (scopes.length === 0 || raw.match === undefined)) fail(id, 'a rule needs a scope and a match');
  const dest = raw.destination as Record<string, unknown> | undefined;
  const examples = raw.examples as { positive?: Example[]; negative?: Example[] } | undefined;
  if (!examples?.positive?.length || !examples.negative?.length) fail(id, 'a positive and a negative example');
  const sev = severity(id, raw.severity);
  if (sev === 'none') fail(id, 'a rule has a severity');
  return {
    id,
    family,
    severity: sev,
    message: typeof raw.message === 'string' ? raw.message : fail(id, 'a message'),
    scopes: scopes as Scope[],
    engine: engine as Rule['engine'],
    match: raw.match === undefined ? null : regex(id, raw.match),
    also: list(id, raw.also),
    inFile: list(id, raw.in_file),
    unless: list(id, raw.unless),
    destination: dest
      ? {
          ...(dest.vendor !== undefined ? { vendor: severity(id, dest.vendor, true) } : {}),
          ...(dest.unknown !== undefined ? { unknown: severity(id, dest.unknown, true) } : {}),
        }
      : null,
    examples: { positive: examples.positive, negative: examples.negative },
  };
}

/** Reads and checks a rule set (the registry's own, by default). */
export function loadRules(file = new URL('./rules/rules.yaml', import.meta.url)): RuleSet {
  const doc = parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown; rules?: unknown };
  if (typeof doc.name !== 'string' || typeof doc.version !== 'number' || !Array.isArray(doc.rules))
    throw new Error('scan rules: name, version and rules');
  const rules = (doc.rules as Record<string, unknown>[]).map(compile);
  const byId = new Map<string, Rule>();
  for (const rule of rules) {
    if (byId.has(rule.id)) fail(rule.id, 'defined twice');
    byId.set(rule.id, rule);
  }
  return { name: doc.name, version: doc.version, rules, byId };
}
