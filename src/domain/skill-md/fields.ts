// The frontmatter's fields, read into a SkillDocument: the required ones refused when unusable, the
// others kept as given with a warning for each deviation from the Agent Skills format. Here: the name (and
// skillSlug), description, license, compatibility and metadata; tags, domain and allowed-tools are read in
// field-lists.ts, with the helpers of field-values.ts.
import { readAllowedTools, readDomain, readTags } from './field-lists.js';
import { codePoints, isPlainObject, kindOf, own } from './field-values.js';
import type { Fields } from './frontmatter.js';
import {
  MAX_COMPATIBILITY_CHARS,
  MAX_CONFORMANT_DESCRIPTION_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
} from './limits.js';
import { controlCharacterRefusal } from '../text.js';
import { Refusal, type SkillDocument, type WarningList } from './types.js';

/** The fields the Agent Skills format defines. */
const FORMAT_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
/** Fields the registry reads at the top level too, though the format puts them under metadata. */
const REGISTRY_FIELDS = ['tags', 'domain', 'version'] as const;
const example: Record<(typeof REGISTRY_FIELDS)[number], string> = {
  tags: 'a, b',
  domain: 'documents',
  version: '1.0.0',
};
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NAME_RULE = `1-${MAX_NAME_CHARS} characters of a-z, 0-9 and -, without leading, trailing or doubled -`;

// Letters that NFKD does not decompose into a base letter and a mark.
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/**
 * The conformant name made from a given one: lower-cased, NFKD-decomposed with the marks dropped (é → e;
 * ß, æ, œ, ø, đ, ł, þ folded too), every run of other characters than a-z and 0-9 made one hyphen,
 * hyphens trimmed from both ends, cut to 64 characters without a trailing hyphen. "" when nothing is left
 * (a name of only other scripts or symbols), which parseSkillMd refuses. A conformant name is its own slug.
 */
export function skillSlug(name: string): string {
  const folded = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
  let out = '';
  let gap = false;
  for (const ch of folded) {
    const c = FOLD[ch] ?? ch;
    if (/^[a-z0-9]+$/.test(c)) {
      if (gap && out !== '') out += '-';
      out += c;
      gap = false;
    } else {
      gap = true;
    }
  }
  out = out.slice(0, MAX_NAME_CHARS);
  while (out.endsWith('-')) out = out.slice(0, -1);
  return out;
}

export function readFields(fm: Fields, warnings: WarningList): Omit<SkillDocument, 'body'> {
  const { name, displayName } = readName(fm, warnings);
  const description = readDescription(fm, warnings);
  const license = optionalText(fm, 'license', warnings);
  const compatibility = optionalText(fm, 'compatibility', warnings);
  if (compatibility !== null && codePoints(compatibility) > MAX_COMPATIBILITY_CHARS) {
    warnings.add(
      'nonconformant_field',
      `frontmatter.compatibility has ${codePoints(compatibility)} characters; the Agent Skills format allows ${MAX_COMPATIBILITY_CHARS}`,
    );
  }
  const metadata = readMetadata(fm, warnings);
  const allowedTools = readAllowedTools(own(fm, 'allowed-tools'), warnings);

  for (const key of REGISTRY_FIELDS) {
    if (own(fm, key) === undefined) continue;
    warnings.add(
      'nonconformant_field',
      `frontmatter.${key} is read, but the Agent Skills format has no top-level ${key}: move it under metadata, as text (metadata: {${key}: "${example[key]}"})`,
    );
  }
  const tags = pick(fm, metadata, 'tags');
  const domain = pick(fm, metadata, 'domain');
  const version = textOrNull(own(metadata, 'version')) ?? textOrNull(own(fm, 'version'));

  for (const key of Object.keys(fm)) {
    if (FORMAT_FIELDS.has(key) || (REGISTRY_FIELDS as readonly string[]).includes(key)) continue;
    warnings.add(
      'unknown_field',
      `unknown frontmatter field ${JSON.stringify(key)}: the Agent Skills format defines name, description, license, compatibility, metadata and allowed-tools; move it under metadata`,
      'more unknown frontmatter fields',
    );
  }

  const read = {
    name,
    displayName,
    description,
    license,
    compatibility,
    domain: readDomain(domain.value, domain.field, warnings),
    tags: readTags(tags.value, tags.field, warnings),
    allowedTools,
    metadata,
    version,
  };
  refuseControlCharacters([
    ['frontmatter.name', displayName, false],
    ['frontmatter.description', description, true],
    ['frontmatter.license', license, false],
    ['frontmatter.compatibility', compatibility, true],
    [domain.field, read.domain, false],
    ...read.tags.map((tag): [string, string, boolean] => [tags.field, tag, false]),
  ]);
  return read;
}

/** What lists and pages show of a skill (text, or null when absent) holds no control characters. */
function refuseControlCharacters(fields: [field: string, text: string | null, lineBreaks: boolean][]): void {
  for (const [field, text, lineBreaks] of fields) {
    const refusal = text === null ? null : controlCharacterRefusal(field, text, lineBreaks);
    if (refusal !== null) throw new Refusal('control_characters', field, refusal);
  }
}

function readName(fm: Fields, warnings: WarningList): { name: string; displayName: string } {
  const field = 'frontmatter.name';
  const raw = own(fm, 'name');
  if (raw === undefined || raw === null) throw new Refusal('no_name', field, `${field} is required`);
  if (typeof raw !== 'string') throw new Refusal('no_name', field, `${field} must be text, not a ${kindOf(raw)}`);
  const displayName = raw.trim();
  if (displayName === '') throw new Refusal('no_name', field, `${field} must not be empty`);
  if (NAME_PATTERN.test(displayName) && displayName.length <= MAX_NAME_CHARS) return { name: displayName, displayName };
  const name = skillSlug(displayName);
  if (name === '') {
    throw new Refusal(
      'no_name',
      field,
      `${field} ${JSON.stringify(short(displayName))} has no letter or digit of a-z and 0-9 to make a name from; use ${NAME_RULE}`,
    );
  }
  warnings.add(
    'name_normalized',
    `${field} ${JSON.stringify(short(displayName))} is not a conformant name (${NAME_RULE}); the skill is named "${name}" and shows the given name: rename it to "${name}"`,
  );
  return { name, displayName };
}

function readDescription(fm: Fields, warnings: WarningList): string {
  const field = 'frontmatter.description';
  const raw = own(fm, 'description');
  if (raw === undefined || raw === null) throw new Refusal('no_description', field, `${field} is required`);
  if (typeof raw !== 'string')
    throw new Refusal('no_description', field, `${field} must be text, not a ${kindOf(raw)}`);
  const description = raw.trim();
  if (description === '') throw new Refusal('no_description', field, `${field} must not be empty`);
  const length = codePoints(description);
  if (length > MAX_DESCRIPTION_CHARS) {
    throw new Refusal(
      'description_too_long',
      field,
      `${field} must be at most ${MAX_DESCRIPTION_CHARS} characters (it has ${length})`,
    );
  }
  if (length > MAX_CONFORMANT_DESCRIPTION_CHARS) {
    warnings.add(
      'description_long',
      `${field} has ${length} characters; the Agent Skills format allows ${MAX_CONFORMANT_DESCRIPTION_CHARS} (the registry accepts up to ${MAX_DESCRIPTION_CHARS}): shorten it`,
    );
  }
  return description;
}

/** license or compatibility: text, trimmed; absent, null or blank is null; anything else is left out. */
function optionalText(fm: Fields, key: string, warnings: WarningList): string | null {
  const raw = own(fm, key);
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    warnings.add('nonconformant_field', `frontmatter.${key} must be text, not a ${kindOf(raw)}; it is left out`);
    return null;
  }
  return raw.trim() === '' ? null : raw.trim();
}

/** metadata as given when it is a mapping; the format wants text values, so others get a warning each. */
function readMetadata(fm: Fields, warnings: WarningList): Fields {
  const raw = own(fm, 'metadata');
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) {
    warnings.add(
      'nonconformant_field',
      `frontmatter.metadata must be a mapping of keys to text values, not a ${kindOf(raw)}; it is left out`,
    );
    return {};
  }
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || typeof value === 'string') continue;
    warnings.add(
      'nonconformant_field',
      `frontmatter.metadata.${key} is a ${kindOf(value)}; the Agent Skills format wants metadata values to be text (${Array.isArray(value) ? `a list as ${key}: a, b` : 'a structure as quoted JSON'})`,
      'more metadata values that are not text',
    );
  }
  return raw;
}

/** tags and domain may sit at the top level or inside metadata; the top level wins. */
function pick(fm: Fields, metadata: Fields, key: string): { value: unknown; field: string } {
  const top = own(fm, key);
  if (top !== undefined && top !== null) return { value: top, field: `frontmatter.${key}` };
  return { value: own(metadata, key), field: `frontmatter.metadata.${key}` };
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
