// Text every backend can store unchanged: well-formed Unicode without NUL characters.
// (PostgreSQL refuses NUL in text, and a lone surrogate cannot be encoded as UTF-8 without being replaced.)

declare global {
  interface String {
    /** ES2024; present in Node 20. */
    isWellFormed(): boolean;
  }
}

const MAX_DEPTH = 64;

/** The path of the first string (or object key) that is not storable text, or null when all are. */
export function findUnstorableText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || 'value';
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return at;
    const found = findUnstorableText(inner, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

// Control characters (C0, DEL, C1): a terminal acts on them instead of showing them. ESC starts sequences
// that hide text (ESC[8m), write the clipboard (OSC 52) or retitle the window; BEL rings; a carriage return
// goes back to the start of the line and overwrites it. Tab and line feed are ordinary white space, and a
// carriage return is one only as part of a line break (CRLF), in text that has lines.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\r(?!\n)/;
const CONTROL_OR_CR = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/**
 * The first control character in `text` as `U+001B`, or null. Allowed: tab, line feed, and (with
 * `lineBreaks`, for text that has lines) a carriage return followed by a line feed.
 */
export function controlCharacterIn(text: string, lineBreaks = false): string | null {
  const found = (lineBreaks ? CONTROL : CONTROL_OR_CR).exec(text);
  return found ? `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/**
 * Why `field` cannot hold `text` (names, titles, descriptions, domains, tags: text shown on one screen),
 * or null when it may. Long-form text (a SKILL.md body, a unit's content) is warned about instead.
 */
export function controlCharacterRefusal(field: string, text: string, lineBreaks = false): string | null {
  const found = controlCharacterIn(text, lineBreaks);
  if (found === null) return null;
  const allowed = lineBreaks ? 'tab and line breaks' : 'tab and line feed';
  return `${field} must not contain control characters (found ${found}; only ${allowed} are allowed): a terminal acts on them, which can hide text from a reader`;
}

// A letter, digit, punctuation mark or symbol: something a reader can see. White space, control and
// format characters (zero-width spaces, bidi marks) and lone combining marks are not.
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Whether `text` shows anything at all. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text);
}

/** Whether a parsed JSON value nests deeper than `limit` arrays and objects (walked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limit) return true;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) stack.push([inner, depth + 1]);
  }
  return false;
}
