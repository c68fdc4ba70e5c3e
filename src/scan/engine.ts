// The rule engine: every rule with a scope is matched against the units of its scope; the flows follow data
// across statements (a download later made executable or run; credentials read and then sent; a bundled
// executable run); text rules look at invisible characters; manifests at install hooks and dependency
// sources. Severities follow the destination and the context, and a dangerous action that the same skill
// tells the agent to hide or to do without asking becomes critical.
import { addressesIn, classifyUrl, worstDestination, type Destination } from './destinations.js';
import { atMost, excerptOf, RANK, type Finding, type Severity } from './findings.js';
import type { Rule, RuleSet } from './rules.js';
import type { Unit } from './units.js';

/** A unit cut longer than this is matched on its first 16 KiB (regex cost stays bounded). */
const UNIT_MAX = 16_384;

/** One file as the engine reads it: its lines, its units, where it sits. */
export interface ReadFile {
  path: string;
  lines: string[];
  text: string;
  units: Unit[];
  /** Lines of code blocks that explain attacks (Markdown). */
  teachingLines: Set<number>;
  /** A script (its statements share variables), not Markdown or data. */
  script: boolean;
}

export class Collector {
  readonly findings: Finding[] = [];
  /** Findings in text that explains attacks: capped, and never a reason to escalate others. */
  readonly teaching = new Set<Finding>();
  private readonly seen = new Set<string>();
  constructor(readonly rules: RuleSet) {}

  rule(id: string): Rule {
    const rule = this.rules.byId.get(id);
    if (!rule) throw new Error(`scan rules: no rule ${id}`);
    return rule;
  }

  add(
    rule: Rule,
    severity: Severity | 'none',
    file: ReadFile | string,
    line: number,
    column = 0,
    excerpt?: string,
    teaching = false,
  ): void {
    if (severity === 'none') return;
    const path = typeof file === 'string' ? file : file.path;
    const key = `${rule.id}\u0000${path}\u0000${line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const text = excerpt ?? (typeof file === 'string' ? '' : (file.lines[line - 1] ?? ''));
    const finding = {
      rule: rule.id,
      severity,
      file: path,
      line,
      message: rule.message,
      excerpt: excerptOf(text, column),
    };
    this.findings.push(finding);
    if (teaching) this.teaching.add(finding);
  }
}

/** The severity a rule gives at a destination. */
export function atDestination(rule: Rule, destination: Destination | null): Severity | 'none' {
  const d = destination ?? 'unknown';
  if (d === 'untrusted' || !rule.destination) return rule.severity;
  return rule.destination[d] ?? rule.severity;
}

const lineWithin = (text: string, index: number): number => {
  let n = 0;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
};

/** A line that marks what it shows as forbidden (`# never run this`, `// Not allowed`, ❌). */
const NEGATED =
  /(❌|🚫|⛔|禁止|不要|不执行)|\b(not allowed|forbidden|prohibited|never (run|do|use|execute)|do not (run|do|use|execute)|don't (run|do|use|execute)|bad example|anti-pattern|dangerous|insecure|vulnerable)\b/i;

/** Matches the scoped rules against a file's units. */
export function applyRules(out: Collector, file: ReadFile): void {
  const checks = new Map<string, boolean>();
  // `in_file` reads the code block or script the unit is part of (a Markdown file holds many unrelated ones).
  const inFile = (rule: Rule, unit: Unit) => {
    if (rule.inFile.length === 0) return true;
    const block = unit.block ?? file.text;
    const key = `${rule.id}\u0000${block.length}\u0000${block.slice(0, 64)}`;
    let ok = checks.get(key);
    if (ok === undefined) {
      ok = rule.inFile.every((r) => r.test(block));
      checks.set(key, ok);
    }
    return ok;
  };
  let fileDestination: Destination | null | undefined;
  for (const unit of file.units) {
    const text = unit.text.length > UNIT_MAX ? unit.text.slice(0, UNIT_MAX) : unit.text;
    for (const rule of out.rules.rules) {
      if (rule.engine !== null || !rule.scopes.includes(unit.scope)) continue;
      const m = rule.match!.exec(text);
      if (!m) continue;
      if (!rule.also.every((r) => r.test(text))) continue;
      if (rule.unless.some((r) => r.test(unit.raw ?? text))) continue;
      if (!inFile(rule, unit)) continue;
      let destination = worstDestination(text);
      // An address held in a variable: the script's own addresses (a long Markdown file's are unrelated).
      if (destination === null && rule.destination && file.script) {
        fileDestination ??= worstDestination(file.text);
        destination = fileDestination;
      }
      let severity = atDestination(rule, destination);
      const line = unit.line + lineWithin(text, m.index);
      const teaching = unit.teaching || file.teachingLines.has(line) || NEGATED.test(file.lines[line - 1] ?? '');
      if (severity !== 'none' && teaching) severity = atMost(severity, 'medium');
      // A dangerous instruction hidden from the person reading the page is an attack, not advice.
      if (severity === 'high' && unit.scope === 'comment' && rule.family !== 'hidden-instructions')
        severity = 'critical';
      const column = Math.max(0, (file.lines[line - 1] ?? '').indexOf(m[0].split('\n')[0]!));
      out.add(rule, severity, file, line, column, undefined, teaching);
    }
  }
}

/** What the flows start from: a download, a file made executable, a credential's place. */
const FLOW_START = /\b(curl|wget|iwr|invoke-webrequest|chmod|nohup)\b/i;

/**
 * Whether a script can hold anything a code rule or a flow finds: a rule that matches no part of the text
 * as written matches none of its statements either, so such a script (most of them) is not parsed at all.
 */
export function worthParsing(rules: RuleSet, text: string): boolean {
  if (FLOW_START.test(text)) return true;
  return rules.rules.some(
    (r) => r.match !== null && (r.scopes.includes('shell') || r.scopes.includes('code')) && r.match.test(text),
  );
}

// ---- flows -----------------------------------------------------------------------------------------

const DOWNLOAD_TO =
  /\b(?:curl\b[^|\n]*?\s(?:-o|--output)\s+|wget\b[^|\n]*?\s(?:-O\s*|--output-document[= ])|(?:curl|wget)\b[^|\n>]*>\s*|invoke-webrequest\b[^\n]*?-outfile\s+|iwr\b[^\n]*?-outfile\s+)["']?([^\s"';&|]+)/i;
const CHMOD_X = /\bchmod\s+(?:-\w+\s+)*(?:[ugoa]*\+[rw]*x\w*|[0-7]?[0-7][0-7]*[1357])\s+([^;&|\n]+)/i;
const RUN_HEAD =
  /^\s*(?:sudo\s+(?:-\S+\s+)*)?(?:nohup\s+|exec\s+|env\s+(?:\w+=\S*\s+)*|setsid\s+|\(\s*)*(?:(?:ba|z|da)?sh\s+|source\s+|\.\s+|python3?\s+|node\s+|perl\s+|start-process\s+(?:-filepath\s+)?|&\s*)?["']?([^\s"';&|()]+)/i;

const baseName = (path: string) => path.replace(/["']/g, '').replace(/\/+$/, '').split('/').pop() ?? '';

/** What a shell unit runs or makes executable: the paths, by base name. */
function executedNames(text: string): string[] {
  const names: string[] = [];
  const chmod = CHMOD_X.exec(text);
  if (chmod) for (const p of chmod[1]!.trim().split(/\s+/)) names.push(baseName(p));
  for (const part of text.split(/&&|\|\||;|\n|\|/)) {
    const head = RUN_HEAD.exec(part)?.[1];
    if (head && /[/.]/.test(head)) names.push(baseName(head));
  }
  return names.filter((n) => n !== '' && n !== '.' && n !== '..');
}

/** A download saved to a file that a later statement makes executable or runs. */
export function downloadThenRun(out: Collector, file: ReadFile): void {
  const rule = out.rule('remote-code-execution/download-then-run');
  const saved = new Map<string, string>();
  for (const unit of file.units) {
    if (unit.scope !== 'shell') continue;
    // A statement's parts in order: `wget … -O f && sh f` downloads, then runs.
    for (const part of unit.text.split(/&&|\|\||;|\n/)) {
      for (const name of executedNames(part)) {
        const from = saved.get(name);
        if (from === undefined) continue;
        let severity = atDestination(rule, worstDestination(from) ?? worstDestination(file.text));
        if (severity !== 'none' && (unit.teaching || file.teachingLines.has(unit.line)))
          severity = atMost(severity, 'medium');
        out.add(rule, severity, file, unit.line);
      }
      const m = DOWNLOAD_TO.exec(part);
      if (m) saved.set(baseName(m[1]!), part);
      else {
        const wget = /\bwget\s+(?:-\S+\s+)*["']?(https?:\/\/[^\s"']+)/i.exec(part);
        if (wget && !/\s-O\s*-/.test(part)) saved.set(baseName(wget[1]!.split('?')[0]!), part);
      }
    }
  }
}

const CREDENTIAL_SOURCES = [
  'credential-access/secrets-path',
  'credential-access/user-dotenv',
  'credential-access/environment-dump',
];

/** Credentials read and sent over the network in one script or one code block. */
export function credentialsSent(out: Collector, file: ReadFile): void {
  const rule = out.rule('exfiltration/credentials-sent');
  const send = out.rule('exfiltration/send-to-untrusted').match!;
  const sources = CREDENTIAL_SOURCES.map((id) => out.rule(id));
  const reads = (unit: Unit) =>
    sources.some((r) => r.match!.test(unit.text) && !r.unless.some((u) => u.test(unit.raw ?? unit.text)));
  const blocks = new Map<string, Unit[]>();
  for (const unit of file.units) {
    if (unit.scope !== 'shell' && unit.scope !== 'code') continue;
    const key = unit.block ?? '';
    blocks.set(key, [...(blocks.get(key) ?? []), unit]);
  }
  for (const units of blocks.values()) {
    if (!units.some(reads)) continue;
    for (const unit of units) {
      const m = send.exec(unit.text);
      if (!m) continue;
      let severity = atDestination(
        rule,
        worstDestination(unit.text) ?? (file.script ? worstDestination(file.text) : null),
      );
      if (severity !== 'none' && (unit.teaching || file.teachingLines.has(unit.line)))
        severity = atMost(severity, 'medium');
      out.add(rule, severity, file, unit.line + lineWithin(unit.text, m.index));
    }
  }
}

/** A bundled executable that a script or the instructions make executable or run. */
export function binariesRun(out: Collector, binaries: string[], files: ReadFile[]): void {
  if (binaries.length === 0) return;
  const rule = out.rule('executable-binary/run');
  const names = new Set(binaries.map(baseName));
  for (const file of files)
    for (const unit of file.units) {
      if (unit.scope === 'shell' && executedNames(unit.text).some((n) => names.has(n)))
        out.add(rule, rule.severity, file, unit.line);
      else if (
        (unit.scope === 'prose' || unit.scope === 'comment') &&
        /\b(run|execute|launch|start)\b/i.test(unit.text)
      )
        for (const path of binaries)
          if (unit.text.includes(path)) out.add(rule, unit.teaching ? 'medium' : rule.severity, file, unit.line);
    }
}

// ---- invisible text --------------------------------------------------------------------------------

const ESCAPE = /\u001b[[\]()#;?0-9]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const ZERO_WIDTH = /[\u200b\u200c\u200e\u200f\u2060-\u2064\u180e]|(?<!^)\ufeff/;
const TAGS = /[\u{e0000}-\u{e007f}]+/u;

/** Invisible characters: tag characters that smuggle text, bidirectional controls, zero-width, escapes. */
export function invisibleText(out: Collector, file: ReadFile): void {
  const tags = out.rule('hidden-instructions/tag-characters');
  file.lines.forEach((line, i) => {
    if (line.length === 0) return;
    const tagRun = TAGS.exec(line);
    if (tagRun) {
      // Tag characters spell ASCII (U+E0020..U+E007E); a flag emoji's few letters are not a message.
      const hidden = [...tagRun[0]].map((c) => c.codePointAt(0)! - 0xe0000).filter((c) => c >= 0x20 && c < 0x7f);
      const message = String.fromCharCode(...hidden);
      if (message.length > 7 || /\s/.test(message))
        out.add(tags, tags.severity, file, i + 1, 0, `${line.replace(TAGS, '')} ⟨hidden: ${message}⟩`);
    }
    if (BIDI.test(line)) out.add(out.rule('hidden-instructions/bidi'), 'high', file, i + 1);
    const zw = ZERO_WIDTH.exec(line);
    if (zw && /\w[\u200b\u200c\u2060-\u2064\ufeff]\w/.test(line))
      out.add(out.rule('hidden-instructions/zero-width'), 'medium', file, i + 1);
    if (ESCAPE.test(line)) out.add(out.rule('hidden-instructions/terminal-escape'), 'high', file, i + 1);
  });
}

/** The hidden text a line's tag characters spell, to read as instructions too. */
export function tagMessages(file: ReadFile): Unit[] {
  const units: Unit[] = [];
  file.lines.forEach((line, i) => {
    const run = TAGS.exec(line);
    if (!run) return;
    const text = String.fromCharCode(
      ...[...run[0]].map((c) => c.codePointAt(0)! - 0xe0000).filter((c) => c >= 0x20 && c < 0x7f),
    );
    if (text.length > 7) {
      units.push({ scope: 'comment', text, line: i + 1, teaching: false });
      units.push({ scope: 'shell', text, line: i + 1, teaching: false });
    }
  });
  return units;
}

// ---- manifests -------------------------------------------------------------------------------------

const HOOKS = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'preuninstall', 'postuninstall'];

/** A bundled package.json's install hooks and dependency sources; requirements files' sources. */
export function manifests(out: Collector, file: ReadFile, paths: string[]): void {
  const name = file.path.split('/').pop()!;
  const lineOf = (needle: string) => Math.max(1, file.lines.findIndex((l) => l.includes(needle)) + 1);
  const untrusted = out.rule('malicious-dependency/untrusted-source');
  if (name === 'package.json') {
    let doc: { scripts?: Record<string, unknown>; [k: string]: unknown };
    try {
      doc = JSON.parse(file.text) as typeof doc;
    } catch {
      return;
    }
    const hook = out.rule('malicious-dependency/install-hook');
    const runs = out.rule('malicious-dependency/hook-runs-finding');
    for (const key of HOOKS) {
      const command = doc.scripts?.[key];
      if (typeof command !== 'string') continue;
      const line = lineOf(`"${key}"`);
      out.add(hook, hook.severity, file, line);
      file.units.push({ scope: 'shell', text: command, line, teaching: false });
      const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/') + 1) : '';
      for (const word of command.split(/\s+/)) {
        const target = paths.find((p) => p === `${dir}${word.replace(/^\.\//, '')}` || p === word.replace(/^\.\//, ''));
        if (!target) continue;
        const worst = out.findings
          .filter((f) => f.file === target)
          .sort((a, b) => RANK[b.severity] - RANK[a.severity])[0];
        if (worst && RANK[worst.severity] >= RANK.high)
          out.add(
            runs,
            worst.severity === 'critical' ? 'critical' : 'high',
            file,
            line,
            0,
            `${file.lines[line - 1]?.trim() ?? ''} → ${worst.rule} at ${target}:${worst.line}`,
          );
      }
    }
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
      const deps = doc[field];
      if (!deps || typeof deps !== 'object') continue;
      for (const [dep, spec] of Object.entries(deps as Record<string, unknown>))
        if (typeof spec === 'string' && addressesIn(spec).some((u) => classifyUrl(u) === 'untrusted'))
          out.add(untrusted, untrusted.severity, file, lineOf(`"${dep}"`));
    }
  } else if (
    /^(requirements[\w.-]*\.txt|pyproject\.toml|setup\.cfg|pipfile|gemfile|go\.mod|cargo\.toml)$/i.test(name)
  ) {
    file.lines.forEach((line, i) => {
      if (addressesIn(line).some((u) => classifyUrl(u) === 'untrusted'))
        out.add(untrusted, untrusted.severity, file, i + 1);
    });
  }
}

// ---- the skill as a whole --------------------------------------------------------------------------

const DANGEROUS = new Set([
  'remote-code-execution',
  'obfuscated-execution',
  'credential-access',
  'exfiltration',
  'reverse-shell',
  'persistence',
  'destructive-command',
  'executable-binary',
  'nested-archive',
  'malicious-dependency',
]);
const COVER = new Set([
  'prompt-injection/conceal',
  'prompt-injection/override',
  'prompt-injection/standing-instructions',
  'agent-safety-bypass/skip-confirmation',
  'agent-safety-bypass/disable-safeguards',
  'agent-safety-bypass/outside-prerequisite',
  'hidden-instructions/html-comment',
  'hidden-instructions/tag-characters',
]);

/**
 * A dangerous action (high) together with instructions to hide it, skip the user's confirmation or turn
 * safeguards off, in the same skill: the action becomes critical, its message naming the instruction.
 */
export function escalate(findings: Finding[], teaching: ReadonlySet<Finding>): void {
  // A scheduled or start-up job that fetches and runs remote code: a lasting backdoor.
  for (const p of findings) {
    if (!p.rule.startsWith('persistence/') || teaching.has(p)) continue;
    const rce = findings.find(
      (f) => f.file === p.file && f.line === p.line && f.rule.startsWith('remote-code-execution/') && !teaching.has(f),
    );
    if (rce && RANK[rce.severity] >= RANK.medium)
      for (const f of [p, rce]) raise(f, `it runs remote code on a schedule or at start-up (${rce.rule})`);
  }
  // Instructions that take the agent out of the user's control, firmly said (high): a cover for what else
  // the skill does. Softer ones (`medium`: do not ask, a prerequisite from an unknown host) cover nothing.
  const covers = findings.filter((f) => COVER.has(f.rule) && RANK[f.severity] >= RANK.medium && !teaching.has(f));
  const firm = covers.filter((f) => RANK[f.severity] >= RANK.high);
  const cover = firm[0];
  if (!cover) return;
  for (const f of findings)
    if (f.severity === 'high' && DANGEROUS.has(f.rule.split('/')[0]!))
      raise(f, `the skill tells the agent to act unchecked (${cover.rule} at ${cover.file}:${cover.line})`);
  // Two different such instructions, one of them turning safeguards off, overriding the agent's own or
  // leaving standing orders: the instructions are the attack.
  for (const f of firm) {
    if (!TAKEOVER.has(f.rule)) continue;
    const other = covers.find((c) => c.rule !== f.rule);
    if (other)
      raise(
        f,
        `together with ${other.rule} (${other.file}:${other.line}), it takes the agent out of the user's control`,
      );
  }
}

const TAKEOVER = new Set([
  'agent-safety-bypass/disable-safeguards',
  'prompt-injection/standing-instructions',
  'prompt-injection/override',
]);

function raise(f: Finding, why: string): void {
  if (f.severity === 'critical') return;
  f.severity = 'critical';
  f.message = `${f.message}; ${why}`;
}
