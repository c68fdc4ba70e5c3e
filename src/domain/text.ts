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
