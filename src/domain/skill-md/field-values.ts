// Small helpers on frontmatter values, shared by the field readers (fields.ts, field-lists.ts): own-property
// lookup, what kind a value is (for messages), and length in code points.
import type { Fields } from './frontmatter.js';

export function own(object: Fields, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (isPlainObject(value)) return 'mapping';
  return typeof value;
}

/** Length in code points, as the Agent Skills reference counts. */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
