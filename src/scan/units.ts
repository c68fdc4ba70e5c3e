// Code read as code: shell, Python and JavaScript/TypeScript parsed with tree-sitter grammars (ast-grep),
// cut into statements. Comments are blanked, quoted strings with spaces blanked (a grep pattern or a log
// message is data, not a command; paths and URLs stay), nested blocks cut to {…}: each statement is then
// one unit that rules match. Offsets and line breaks are kept, so a match's line is the file's line.
// Command strings that Python or JavaScript hand to a shell (subprocess, child_process), and the argument of
// `sh -c`/`eval`, are read as shell in turn. PowerShell has no grammar here: its lines, comments out.
import { Lang, parse, registerDynamicLanguage, type SgNode } from '@ast-grep/napi';
import bash from '@ast-grep/lang-bash';
import python from '@ast-grep/lang-python';
import type { Scope } from './rules.js';

registerDynamicLanguage({ bash, python });

export type CodeLanguage = 'shell' | 'python' | 'javascript' | 'typescript' | 'powershell';

/** A piece of text that rules match: a statement, a paragraph, a comment. */
export interface Unit {
  scope: Scope;
  text: string;
  /** The file's 1-based line where the text starts. */
  line: number;
  /** Explanatory context (text about attacks, not doing them): findings are capped at medium. */
  teaching: boolean;
  /** The statement as written, strings and comments in (what a rule's `unless` reads); else `text`. */
  raw?: string;
  /** The code block or script the statement belongs to (what a rule's `in_file` reads); else the file. */
  block?: string;
}

/** Statement kinds that become units (their nested blocks cut away), per grammar. */
const STATEMENTS = {
  shell: [
    'command',
    'pipeline',
    'list',
    'redirected_statement',
    'variable_assignment',
    'declaration_command',
    'negated_command',
    'subshell',
  ],
  python: [
    'expression_statement',
    'return_statement',
    'import_statement',
    'import_from_statement',
    'raise_statement',
    'assert_statement',
    'if_statement',
    'for_statement',
    'while_statement',
    'with_statement',
    'function_definition',
    'class_definition',
  ],
  javascript: [
    'expression_statement',
    'lexical_declaration',
    'variable_declaration',
    'return_statement',
    'if_statement',
    'for_statement',
    'for_in_statement',
    'while_statement',
    'function_declaration',
    'import_statement',
    'throw_statement',
  ],
};
const BLOCKS = { shell: [] as string[], python: ['block'], javascript: ['statement_block', 'class_body'] };
const STRINGS = {
  shell: ['string', 'raw_string', 'ansi_c_string', 'heredoc_body'],
  python: ['string'],
  javascript: ['string', 'template_string'],
};
const CALLS = { python: 'call', javascript: 'call_expression' };
/** Callees that hand their string arguments to a shell. */
const SHELL_CALLEES =
  /(^|\.)(system|popen|Popen|run|call|check_output|check_call|getoutput|getstatusoutput|execSync|spawn|spawnSync|execFile|execFileSync|execa|execaSync|execCommand|shell)$|(^|[.\s(])exec$/;
/** Text before a string that makes the string a shell command of its own. */
const SHELL_C = /(?:\b(?:ba|z|da|k)?sh|\beval|\bsu|\bssh\s+\S+)\s+(?:-\w+\s+)*(?:-c\s+)?$/;
/** Text around a string that makes it a command run later: a crontab line, a start-up file, a unit. */
const PERSISTED =
  /crontab|\/etc\/cron|\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv)\b|\.service\b|launchagents|execstart/i;
/** A string kept as it is: a word, a path or a URL (what rules look for), or one with a command substitution. */
const KEPT_STRING = /^[^\s()|;]*$|^["'`]?(~|\/|\$home|\$\{home\}|https?:|[A-Za-z]:\\)[^\n|;&]*$|\$\(|`/i;

interface Span {
  start: number;
  end: number;
  /** 0-based lines of the start and the end. */
  startLine: number;
  endLine: number;
}

const rule = (kinds: readonly string[]) => ({ rule: { any: kinds.map((kind) => ({ kind })) } });

const spanOf = (node: SgNode): Span => {
  const r = node.range();
  return { start: r.start.index, end: r.end.index, startLine: r.start.line, endLine: r.end.line };
};

/** The first of spans sorted by start that starts at or after `at`. */
function firstFrom(spans: readonly Span[], at: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Replaces every character of a span but line breaks with spaces. */
function blank(chars: string[], span: Span, keepEnds = 0): void {
  for (let i = span.start + keepEnds; i < span.end - keepEnds; i++) if (chars[i] !== '\n') chars[i] = ' ';
}

/** The outermost of sorted spans (those not inside another). */
function outermost<T extends Span>(spans: T[]): T[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  let end = -1;
  for (const s of sorted) {
    if (s.start >= end) {
      out.push(s);
      end = s.end;
    }
  }
  return out;
}

/** The string's content without its quotes (and Python's prefixes). */
const contentOf = (text: string): string => {
  const m = /^[a-zA-Z]{0,2}("""|'''|["'`])([\s\S]*)\1$/.exec(text);
  return m ? m[2]! : text;
};

export interface NestedSource {
  language: CodeLanguage;
  text: string;
  /** The file's 0-based line where the text starts. */
  line0: number;
}

export interface CodeUnits {
  units: Unit[];
  /** Command strings found in the code, to read as shell. */
  nested: NestedSource[];
}

function grammarOf(language: CodeLanguage): { lang: string | Lang; kinds: 'shell' | 'python' | 'javascript' } {
  if (language === 'shell') return { lang: 'bash', kinds: 'shell' };
  if (language === 'python') return { lang: 'python', kinds: 'python' };
  if (language === 'typescript') return { lang: Lang.TypeScript, kinds: 'javascript' };
  return { lang: Lang.JavaScript, kinds: 'javascript' };
}

/** PowerShell: each line a unit, comments (`#…`, `<#…#>`) blanked. */
function powershellUnits(text: string, line0: number): CodeUnits {
  const units: Unit[] = [];
  const clean = text.replace(/<#[\s\S]*?#>/g, (c) => c.replace(/[^\n]/g, ' '));
  clean.split('\n').forEach((line, i) => {
    // Comments out, and quoted text with spaces or alternations (a -Pattern, a message) blanked.
    const code = line
      .replace(/(^|\s)#.*$/, '')
      .replace(/(["'])([^"'\n]*[\s|][^"'\n]*)\1/g, (_, q: string, body: string) => q + ' '.repeat(body.length) + q);
    if (code.trim() !== '') units.push({ scope: 'shell', text: code, line: line0 + i + 1, teaching: false });
  });
  return { units, nested: [] };
}

/** The statements of a script, with the command strings it hands to a shell. */
export function codeUnits(language: CodeLanguage, text: string, line0 = 0): CodeUnits {
  if (language === 'powershell') return powershellUnits(text, line0);
  const { lang, kinds } = grammarOf(language);
  let root: SgNode;
  try {
    root = parse(lang, text).root();
  } catch {
    return { units: [], nested: [] };
  }
  // ast-grep's offsets count UTF-16 code units, as JavaScript strings do.
  const masked = text.split('');
  const nested: NestedSource[] = [];
  for (const c of root.findAll(rule(['comment']))) blank(masked, spanOf(c));
  for (const s of outermost(root.findAll(rule(STRINGS[kinds])).map((n) => ({ ...spanOf(n), node: n })))) {
    const raw = text.slice(s.start, s.end);
    if (KEPT_STRING.test(raw)) continue;
    const around = text.slice(Math.max(0, s.start - 200), Math.min(text.length, s.end + 200));
    if (kinds === 'shell' && (SHELL_C.test(text.slice(Math.max(0, s.start - 60), s.start)) || PERSISTED.test(around))) {
      nested.push({ language: 'shell', text: contentOf(raw), line0: line0 + s.node.range().start.line });
    }
    blank(masked, s, 1);
  }
  if (kinds !== 'shell') {
    for (const call of root.findAll(rule([CALLS[kinds]]))) {
      const callee = call.field('function')?.text() ?? '';
      if (!SHELL_CALLEES.test(callee) || callee === 'exec' || callee === 'eval') continue;
      const args = call.field('arguments');
      if (!args) continue;
      const words = args.findAll(rule(STRINGS[kinds])).map((s) => contentOf(s.text()));
      if (words.length > 0)
        nested.push({ language: 'shell', text: words.join(' '), line0: line0 + call.range().start.line });
    }
  }
  const maskedText = masked.join('');
  // Every block, sorted: a statement's text skips the blocks directly inside it (each a unit of its own).
  const blocks = BLOCKS[kinds].length
    ? root
        .findAll(rule(BLOCKS[kinds]))
        .map(spanOf)
        .sort((a, b) => a.start - b.start)
    : [];
  const statements = root.findAll(rule(STATEMENTS[kinds])).map(spanOf);
  const chosen = kinds === 'shell' ? outermost(statements) : statements;
  const units: Unit[] = [];
  for (const s of chosen) {
    let piece = '';
    let at = s.start;
    for (let i = firstFrom(blocks, s.start); i < blocks.length && blocks[i]!.start < s.end;) {
      const b = blocks[i]!;
      piece += maskedText.slice(at, b.start) + '{…}' + '\n'.repeat(b.endLine - b.startLine);
      at = b.end;
      i = firstFrom(blocks, b.end);
    }
    piece += maskedText.slice(at, s.end);
    if (piece.trim() !== '')
      units.push({
        scope: kinds === 'shell' ? 'shell' : 'code',
        text: piece,
        line: line0 + s.startLine + 1,
        teaching: false,
        raw: text.slice(s.start, s.end),
        block: text,
      });
  }
  return { units, nested };
}

/** The language of a script, by its extension or its first line. */
export function languageOf(path: string, text: string): CodeLanguage | null {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  if (['sh', 'bash', 'zsh', 'ksh', 'command', 'bats'].includes(ext)) return 'shell';
  if (['py', 'pyw'].includes(ext)) return 'python';
  if (['js', 'mjs', 'cjs', 'jsx'].includes(ext)) return 'javascript';
  if (['ts', 'mts', 'cts', 'tsx'].includes(ext)) return 'typescript';
  if (['ps1', 'psm1', 'psd1'].includes(ext)) return 'powershell';
  if (ext !== '' && !/\/[^/.]+$/.test(`/${path}`)) return null;
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text)?.slice(1).join(' ') ?? '';
  if (/\b(ba|z|da|k)?sh\b/.test(shebang)) return 'shell';
  if (/python/.test(shebang)) return 'python';
  if (/\b(node|deno|bun)\b/.test(shebang)) return 'javascript';
  if (/pwsh|powershell/.test(shebang)) return 'powershell';
  return null;
}

/** The language of a Markdown code block's info string. */
export function fenceLanguage(info: string): CodeLanguage | null {
  const lang = info.trim().split(/[\s{]/)[0]!.toLowerCase();
  if (
    [
      '',
      'sh',
      'bash',
      'shell',
      'zsh',
      'console',
      'terminal',
      'shell-session',
      'shellsession',
      'ksh',
      'command',
      'cmd',
    ].includes(lang)
  )
    return 'shell';
  if (['python', 'py', 'python3', 'ipython', 'pycon'].includes(lang)) return 'python';
  if (['js', 'javascript', 'node', 'jsx', 'mjs', 'cjs'].includes(lang)) return 'javascript';
  if (['ts', 'typescript', 'tsx'].includes(lang)) return 'typescript';
  if (['powershell', 'ps1', 'pwsh', 'ps', 'posh'].includes(lang)) return 'powershell';
  return null;
}
