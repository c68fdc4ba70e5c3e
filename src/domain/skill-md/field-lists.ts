// The frontmatter fields read as lists, tags and allowed-tools (from a list or a separated text: trimmed,
// within the limits, the rest left out with a warning), and the domain, for readFields (fields.ts).
import { isPlainObject, kindOf } from './field-values.js';
import { MAX_ALLOWED_TOOL_CHARS, MAX_ALLOWED_TOOLS, MAX_DOMAIN_CHARS, MAX_TAG_CHARS, MAX_TAGS } from './limits.js';
import type { WarningList } from './types.js';

/** Tags from a comma-separated text or a list: trimmed, blanks dropped, de-duplicated, within the limits. */
export function readTags(value: unknown, field: string, warnings: WarningList): string[] {
  return readList(value, field, splitCommas, MAX_TAGS, MAX_TAG_CHARS, true, warnings);
}

/** allowed-tools from a space- (or comma-) separated text or a list. */
export function readAllowedTools(value: unknown, warnings: WarningList): string[] {
  const field = 'frontmatter.allowed-tools';
  if (isPlainObject(value)) {
    warnings.add(
      'nonconformant_field',
      `${field} must be a space-separated text or a list, not a mapping; it is left out`,
    );
    return [];
  }
  if (Array.isArray(value) && value.some((item) => typeof item !== 'string' && item !== null)) {
    warnings.add('nonconformant_field', `${field} must list tool names as text; the other entries are left out`);
  }
  return readList(value, field, splitTools, MAX_ALLOWED_TOOLS, MAX_ALLOWED_TOOL_CHARS, false, warnings);
}

function readList(
  value: unknown,
  field: string,
  split: (text: string) => string[],
  maxItems: number,
  maxLength: number,
  dedupe: boolean,
  warnings: WarningList,
): string[] {
  if (value === undefined || value === null) return [];
  let items: unknown[];
  if (typeof value === 'string') items = split(value);
  else if (Array.isArray(value)) items = value;
  else {
    warnings.add(
      'value_ignored',
      `${field} must be a list or a comma-separated text, not a ${kindOf(value)}; it is not indexed`,
    );
    return [];
  }
  const seen = new Set<string>();
  const out: string[] = [];
  let tooLong = 0;
  let notText = 0;
  let over = 0;
  for (const item of items) {
    if (typeof item !== 'string') {
      if (item !== null) notText++;
      continue;
    }
    const trimmed = item.trim();
    if (trimmed === '') continue;
    if (trimmed.length > maxLength) {
      tooLong++;
      continue;
    }
    const folded = trimmed.toLowerCase();
    if (dedupe && seen.has(folded)) continue;
    if (out.length >= maxItems) {
      over++;
      continue;
    }
    seen.add(folded);
    out.push(trimmed);
  }
  const entries = (n: number) => (n === 1 ? '1 entry' : `${n} entries`);
  if (notText > 0 && !field.endsWith('allowed-tools'))
    warnings.add('value_ignored', `${field}: ${entries(notText)} that are not text, not indexed`);
  if (tooLong > 0)
    warnings.add('value_ignored', `${field}: ${entries(tooLong)} over ${maxLength} characters, not indexed`);
  if (over > 0)
    warnings.add('value_ignored', `${field} has more than ${maxItems} entries; the first ${maxItems} are indexed`);
  return out;
}

export function readDomain(value: unknown, field: string, warnings: WarningList): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    warnings.add('value_ignored', `${field} must be text, not a ${kindOf(value)}; it is not indexed`);
    return null;
  }
  const domain = value.trim();
  if (domain === '') return null;
  if (domain.length > MAX_DOMAIN_CHARS) {
    warnings.add('value_ignored', `${field} is over ${MAX_DOMAIN_CHARS} characters; it is not indexed`);
    return null;
  }
  return domain;
}

function splitCommas(text: string): string[] {
  return text.split(',');
}

/** Tool names separated by spaces or commas, except inside parentheses: `Bash(git add:*) Read, Write`. */
function splitTools(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === undefined || (depth === 0 && (c === ',' || c === ' ' || c === '\t' || c === '\n'))) {
      if (i > start) out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}
