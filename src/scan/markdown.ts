// Markdown read as instructions to an agent: paragraphs, list items and headings are prose (what the agent
// is told), HTML comments are hidden text (what it reads and a person does not see), code blocks are code
// of their language, and inline code that looks like a command is a shell statement. A paragraph or code
// block that explains attacks (in a section about them, or next to "never run") is marked `teaching`.
import MarkdownIt from 'markdown-it';
import { fenceLanguage, type NestedSource, type Unit } from './units.js';

const md = new MarkdownIt({ html: true });

/** Words of text that explains an attack rather than doing it. */
const TEACHING =
  /(❌|🚫|⛔|禁止|不要|不执行|不得)|\b(not allowed|forbidden|prohibited|malicious|attackers?|attacks?|exploits?|exploitation|stealers?|malware|red flags?|warning signs?|indicators? of compromise|iocs?|detection rules?|vulnerabilit(y|ies)|pentest(ing)?|penetration test(ing)?|red team(ing)?|ctf|privilege escalation|proof of concept|ssrf|payloads?|never (run|execute|pipe|paste)|do not (run|execute|pipe|paste)|don't (run|execute|pipe|paste)|avoid (running|piping)|dangerous (patterns?|commands?|operations?)|destructive (patterns?|commands?|operations?)|guardrails?|blocked commands?|suspicious (patterns?|commands?)|what to look for|threat model|phishing|example payloads?|reverse shells?|prompt injections?)\b/i;

/** Inline code that reads as a command. */
const COMMANDISH =
  /^\s*(\$\s+)?(sudo\s+)?(curl|wget|bash|sh|zsh|python3?|node|iwr|irm|iex|powershell|pwsh|echo|base64|chmod|nc|ncat|rm|crontab|xattr|tar|unzip|osascript|open|eval|source)\b.*\s/;

const COMMENT = /<!--([\s\S]*?)(-->|$)/g;

export interface MarkdownUnits {
  units: Unit[];
  code: NestedSource[];
  /** Code blocks in teaching context: findings inside are capped at medium. */
  teachingLines: Set<number>;
}

const lineOf = (text: string, index: number) => {
  let n = 0;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
};

function comments(text: string, line: number, units: Unit[]): string {
  return text.replace(COMMENT, (whole, body: string, _end: string, offset: number) => {
    units.push({ scope: 'comment', text: body, line: line + lineOf(text, offset), teaching: false });
    return whole.replace(/[^\n]/g, ' ');
  });
}

/** The prose, hidden comments and code of a Markdown text; `line0` is where it starts in its file. */
export function markdownUnits(text: string, line0 = 0): MarkdownUnits {
  const units: Unit[] = [];
  const code: NestedSource[] = [];
  const teachingLines = new Set<number>();
  // The frontmatter is metadata, not prose: blanked (lines kept), its hook commands read as shell.
  const front = /^---\r?\n[\s\S]*?\n---\r?\n/.exec(text);
  if (front) {
    front[0].split('\n').forEach((l, i) => {
      const command = /^\s*(?:-\s*)?command:\s*["']?(.+?)["']?\s*$/.exec(l);
      if (command) units.push({ scope: 'shell', text: command[1]!, line: line0 + i + 1, teaching: false });
    });
    text = front[0].replace(/[^\n]/g, ' ') + text.slice(front[0].length);
  }
  let tokens: ReturnType<typeof md.parse>;
  try {
    tokens = md.parse(text, {});
  } catch {
    return { units: [{ scope: 'prose', text, line: line0 + 1, teaching: false }], code, teachingLines };
  }
  let heading = '';
  let previous = '';
  let inHeading = false;
  let inTable = false;
  // Inline tokens of table cells have no line of their own: the last block's line stands for them.
  let lastLine = line0 + 1;
  for (const token of tokens) {
    const line = token.map ? line0 + token.map[0] + 1 : lastLine;
    lastLine = line;
    if (token.type === 'heading_open') inHeading = true;
    // A table lists and compares (commands a hook blocks, flags and what they do): reference, not orders.
    if (token.type === 'table_open') inTable = true;
    if (token.type === 'table_close') inTable = false;
    if (token.type === 'heading_close') inHeading = false;
    if (token.type === 'inline') {
      const teaching = inTable || TEACHING.test(token.content) || TEACHING.test(heading);
      if (inHeading) heading = token.content;
      // Inline code marks are presentation: `.env` file reads as .env file.
      const prose = comments(token.content, line, units).replace(/`/g, ' ');
      units.push({ scope: 'prose', text: prose, line, teaching });
      prose.split('\n').forEach((l, i) => {
        if (COMMANDISH.test(l))
          units.push({ scope: 'shell', text: l.replace(/^\s*\$\s+/, ''), line: line + i, teaching });
      });
      for (const child of token.children ?? [])
        if (child.type === 'code_inline' && COMMANDISH.test(child.content))
          units.push({
            scope: 'shell',
            text: child.content.replace(/^\s*\$\s+/, ''),
            line: line + lineOf(prose, prose.indexOf(child.content)),
            teaching,
          });
      previous = token.content;
    } else if (token.type === 'html_block') {
      const rest = comments(token.content, line, units);
      if (rest.trim() !== '') units.push({ scope: 'prose', text: rest, line, teaching: TEACHING.test(heading) });
    } else if (token.type === 'fence' || token.type === 'code_block') {
      const language = fenceLanguage(token.type === 'fence' ? token.info : '');
      const start = line0 + (token.map?.[0] ?? 0) + (token.type === 'fence' ? 1 : 0);
      const teaching = TEACHING.test(previous) || TEACHING.test(heading);
      if (teaching)
        for (let i = 0; i <= lineOf(token.content, token.content.length); i++) teachingLines.add(start + i + 1);
      if (language) {
        // A console transcript's prompts are not part of the commands.
        const body = language === 'shell' ? token.content.replace(/^(\s*)\$\s+/gm, '$1') : token.content;
        code.push({ language, text: body, line0: start });
      }
    }
  }
  return { units, code, teachingLines };
}
