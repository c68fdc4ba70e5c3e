// Soft content findings: invisible characters, HTML outside code, text that looks like a prompt injection.
// Linear: every regex below is a character class, literal words with bounded gaps, or anchored so that
// attempts do not overlap.
import { controlCharacterIn } from '../text.js';
import type { SkillWarning } from './types.js';

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

// A tag or the start of a comment: `a < b` and autolinks like <https://x> have no whitespace, / or > after the name.
const TAG = /<!--|<\/?([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?\/?>/g;
// Where an HTML parser ends a comment: `-->`, or `--!>` (so `<!-- --!><script>` runs its script). `<!-->` and
// `<!--->` are complete, empty comments.
const COMMENT_END = /--!?>/g;
// Only HTML's own elements count: prompt-style tags (<example>, <instructions>) are plain text to a reader
// and to a renderer, while HTML elements can hide or fetch content.
const HTML_ELEMENTS = new Set(
  (
    'a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption center cite ' +
    'col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer ' +
    'form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li ' +
    'link main map mark marquee menu meta meter nav noscript object ol optgroup option output p param picture pre ' +
    'progress q rp rt ruby s samp script section select slot small source span strike strong style sub summary sup ' +
    'svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr'
  ).split(' '),
);
// What makes a comment worth a warning: markup that runs or fetches something once the comment is gone (or,
// for Internet Explorer's conditional comments, while it is there). Watermarks and notes carry none of it.
// Linear: each alternative is anchored at a `<`, a word boundary or the start, and its gaps are bounded.
const RISKY_IN_COMMENT =
  /<\/?(?<element>script|style|iframe|frame|frameset|object|embed|applet|svg|math|link|meta|base|form|img|image|video|audio|source|track|template|portal)\b|<[a-z][^<>]{0,1000}?\s(?<handler>on[a-z]+)\s*=|\b(?<url>(?:java|vb)script\s*:|data\s*:\s*text\/html)|^(?<conditional>\[if\b)/i;

/** What a risky comment hides, for the warning; null for a comment of plain text. */
function riskInComment(content: string): string | null {
  const groups = RISKY_IN_COMMENT.exec(content.trimStart())?.groups;
  if (!groups) return null;
  if (groups.element) return `<${groups.element.toLowerCase()}>`;
  if (groups.handler) return `an event handler (${groups.handler.toLowerCase()})`;
  if (groups.url) return `a ${groups.url.replace(/\s+/g, '').toLowerCase()} URL`;
  return 'a conditional comment';
}

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

const MARKDOWN_FILE = /\.(?:md|mdx|markdown|txt)$/i;

/**
 * Soft findings in one text, at most one per kind, in this order: invisible_characters, control_characters,
 * html (markdown only: no file, or a .md/.mdx/.markdown/.txt file; fenced and inline code are skipped),
 * prompt_injection. With `file`, each warning names it (for the files of a bundle).
 */
export function scanText(text: string, file?: string): SkillWarning[] {
  if (typeof text !== 'string') return [];
  const markdown = file === undefined || MARKDOWN_FILE.test(file);
  const found = [
    invisibleCharacters(text),
    controlCharacters(text),
    markdown ? html(text) : null,
    promptInjection(text),
  ].filter((w) => w !== null);
  const where = file === undefined ? '' : `${file}: `;
  return found.map((w) => (file === undefined ? w : { ...w, message: `${where}${w.message}`, file }));
}

export function invisibleCharacters(text: string): SkillWarning | null {
  const invisible = INVISIBLE.exec(text);
  if (!invisible) return null;
  const code = invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return {
    kind: 'invisible_characters',
    message: `the content contains invisible Unicode characters (first: U+${code}), which can hide text from reviewers`,
  };
}

/** Control characters other than tab and line breaks (ESC, BEL, ...), which a terminal acts on instead of showing. */
export function controlCharacters(text: string): SkillWarning | null {
  const found = controlCharacterIn(text, true);
  if (found === null) return null;
  return {
    kind: 'control_characters',
    message: `the content contains control characters (first: ${found}), which a terminal acts on instead of showing: they can hide text from reviewers`,
  };
}

/**
 * HTML a reader of the rendered markdown would not see as written: an HTML element outside code, an HTML
 * comment that hides markup which runs or fetches something (a script, an event handler, an iframe; or a
 * conditional comment), or a comment left open, which hides the rest of the file. Comments of plain text
 * (watermarks such as `<!-- tomevault:4.0:… -->`, notes to editors) are not findings: the prompt-injection
 * scan reads the text inside them like any other.
 */
export function html(markdown: string): SkillWarning | null {
  const prose = proseOnly(markdown);
  const found = (what: string): SkillWarning => ({
    kind: 'html',
    message: `the body contains HTML outside code (first: ${what}), which can hide content from reviewers`,
  });
  TAG.lastIndex = 0;
  for (let match = TAG.exec(prose); match; match = TAG.exec(prose)) {
    const name = match[1];
    if (name !== undefined) {
      if (HTML_ELEMENTS.has(name.toLowerCase())) return found(`<${name.toLowerCase()}>`);
      continue;
    }
    const start = match.index + 4;
    // `<!-->` and `<!--->`: an empty comment, closed at once.
    const abrupt = /^-?>/.exec(prose.slice(start, start + 2));
    if (abrupt) {
      TAG.lastIndex = start + abrupt[0].length;
      continue;
    }
    COMMENT_END.lastIndex = start;
    const end = COMMENT_END.exec(prose);
    if (!end) return found('an HTML comment that is never closed, hiding the rest of the text');
    const risk = riskInComment(prose.slice(start, end.index));
    if (risk) return found(`an HTML comment hiding ${risk}`);
    TAG.lastIndex = end.index + end[0].length;
  }
  return null;
}

export function promptInjection(text: string): SkillWarning | null {
  const injection = INJECTION.find(([pattern]) => pattern.test(text));
  if (!injection) return null;
  return {
    kind: 'prompt_injection',
    message: `the content contains text that looks like a prompt injection ("${injection[1]}")`,
  };
}

/** The markdown without fenced code blocks and inline code spans, where HTML is legitimate. */
function proseOnly(markdown: string): string {
  const prose: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
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
