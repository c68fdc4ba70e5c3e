// The security scanner: what a skill version (SKILL.md and every bundle file) or a knowledge unit would do,
// as findings with their evidence, and the verdict they make. Pure and bounded: no I/O but reading its rule
// set once; the service decides what a verdict does (hold, refuse).
//
// How it reads:
// - bytes first (bytes.ts): native executables and archives by their magic numbers, never by their names;
//   other opaque data is skipped;
// - code as code (units.ts): shell, Python and JavaScript/TypeScript parsed with tree-sitter grammars
//   (ast-grep) into statements, comments and quoted text blanked; PowerShell by lines;
// - Markdown as instructions (markdown.ts): prose, hidden HTML comments, code blocks as code of their
//   language, inline commands; text that explains attacks is marked and capped at medium;
// - rules as data (rules/rules.yaml, versioned as a set): each with a family, a severity, a message and its
//   own positive and negative examples; engine.ts applies them, follows data across statements (a download
//   run later; credentials read and sent) and judges destinations (destinations.ts);
// - credentials of the publisher's own (secrets.ts) with secretlint's recommended rules: reported apart,
//   for the service to refuse the publication.
// Not here yet: background rescans when the rule set's version changes (the stored `scanner` says which
// verdicts are due); archives' contents are not opened.
import { bytesKind } from './bytes.js';
import {
  binariesRun,
  Collector,
  credentialsSent,
  downloadThenRun,
  escalate,
  invisibleText,
  manifests,
  tagMessages,
  applyRules,
  worthParsing,
  type ReadFile,
} from './engine.js';
import { RANK, verdictOf, type Finding, type Verdict } from './findings.js';
import { markdownUnits } from './markdown.js';
import { loadRules } from './rules.js';
import { findSecrets, type SecretHit } from './secrets.js';
import { codeUnits, languageOf, type NestedSource, type Unit } from './units.js';

export type { Finding, Verdict } from './findings.js';
export type { SecretHit } from './secrets.js';

const RULES = loadRules();

/** The rule set's name and version, as every verdict names it. */
export const SCANNER = `${RULES.name}/${RULES.version}`;

/** At most this many findings are kept per version (the most severe first). */
const MAX_FINDINGS = 100;

export interface ScanResult {
  verdict: Verdict;
  scanner: string;
  findings: Finding[];
  /** Credentials of the publisher's own: a publication that has any is refused. */
  secrets: SecretHit[];
}

export interface ScanFile {
  path: string;
  bytes: Uint8Array;
}

const decoder = new TextDecoder('utf-8');

/** Units of code found inside a file (code blocks, command strings), read in turn. */
function unitsOfNested(sources: NestedSource[]): Unit[] {
  const units: Unit[] = [];
  const queue = [...sources];
  for (let depth = 0; queue.length > 0 && depth < 200; depth++) {
    const source = queue.shift()!;
    if (!worthParsing(RULES, source.text)) continue;
    const read = codeUnits(source.language, source.text, source.line0);
    units.push(...read.units);
    queue.push(...read.nested);
  }
  return units;
}

const isMarkdown = (path: string) => /\.(md|markdown|mdx|txt|rst)$/i.test(path) || !/\.[^/]+$/.test(path);

/** A text file cut into the units its kind has. */
function readText(path: string, text: string, markdownLike: boolean): ReadFile {
  const lines = text.split('\n');
  const language = languageOf(path, text);
  const file: ReadFile = { path, lines, text, units: [], teachingLines: new Set(), script: language !== null };
  if (language) {
    if (worthParsing(RULES, text)) {
      const read = codeUnits(language, text);
      file.units.push(...read.units, ...unitsOfNested(read.nested));
    }
  } else if (markdownLike) {
    const md = markdownUnits(text);
    file.units.push(...md.units, ...unitsOfNested(md.code));
    file.teachingLines = md.teachingLines;
  }
  file.units.push(...tagMessages(file));
  return file;
}

function finish(out: Collector, secrets: SecretHit[]): ScanResult {
  escalate(out.findings, out.teaching);
  const findings = out.findings
    .sort((a, b) => RANK[b.severity] - RANK[a.severity] || a.file.localeCompare(b.file) || a.line - b.line)
    .slice(0, MAX_FINDINGS);
  return { verdict: verdictOf(findings), scanner: SCANNER, findings, secrets };
}

/** Scans a skill version: SKILL.md (path `SKILL.md`) and its bundle files. */
export async function scanSkill(input: { files: readonly ScanFile[] }): Promise<ScanResult> {
  const out = new Collector(RULES);
  const secrets: SecretHit[] = [];
  const texts: ReadFile[] = [];
  const binaries: string[] = [];
  const paths = input.files.map((f) => f.path);
  for (const { path, bytes } of input.files) {
    const { kind } = path === 'SKILL.md' ? { kind: 'text' as const } : await bytesKind(bytes);
    if (kind === 'executable') {
      binaries.push(path);
      out.add(out.rule('executable-binary/native'), 'high', path, 1, 0, path);
    } else if (kind === 'archive') out.add(out.rule('nested-archive/archive'), 'medium', path, 1, 0, path);
    else if (kind === 'encrypted-archive') out.add(out.rule('nested-archive/encrypted'), 'critical', path, 1, 0, path);
    if (kind !== 'text') continue;
    const text = decoder.decode(bytes);
    secrets.push(...(await findSecrets(path, text)));
    texts.push(readText(path, text, path === 'SKILL.md' || isMarkdown(path)));
  }
  // Code before manifests: an install hook is judged by what the code it runs does.
  const ordered = [...texts].sort(
    (a, b) => Number(a.path.endsWith('package.json')) - Number(b.path.endsWith('package.json')),
  );
  for (const file of ordered) {
    manifests(out, file, paths);
    applyRules(out, file);
    invisibleText(out, file);
    downloadThenRun(out, file);
    credentialsSent(out, file);
  }
  binariesRun(out, binaries, texts);
  return finish(out, secrets);
}

/** The fields of a knowledge unit that are scanned, named as findings name them. */
export interface UnitContent {
  title: string;
  content: { description: string; examples: readonly string[] };
}

/** Scans a knowledge unit: its title, description and examples, each read as Markdown. */
export async function scanUnit(unit: UnitContent): Promise<ScanResult> {
  const out = new Collector(RULES);
  const secrets: SecretHit[] = [];
  const fields: [string, string][] = [
    ['title', unit.title],
    ['content.description', unit.content.description],
    ...unit.content.examples.map((e, i): [string, string] => [`content.examples[${i}]`, e]),
  ];
  for (const [name, text] of fields) {
    secrets.push(...(await findSecrets(name, text)));
    const file = readText(name, text, true);
    applyRules(out, file);
    invisibleText(out, file);
    downloadThenRun(out, file);
    credentialsSent(out, file);
  }
  return finish(out, secrets);
}

/** The rule set, for its own tests (every rule's examples). */
export const ruleSet = () => RULES;
