// SKILL.md: YAML frontmatter between --- lines, then a markdown body (the Agent Skills format).
// Hard rules refuse the document; soft findings become warnings and never block.
import { parseDocument } from 'yaml';

export interface SkillDocument {
  name: string;
  description: string;
  license: string | null;
  compatibility: string | null;
  domain: string | null;
  tags: string[];
  allowedTools: string[];
  metadata: Record<string, unknown>;
  body: string;
}

export type SkillParseResult =
  | { ok: true; skill: SkillDocument; warnings: string[] }
  | { ok: false; field: string; message: string };

const KNOWN_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'tags', 'domain']);
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const LONG_BODY_LINES = 500;
const LONG_BODY_CHARS = 50_000;
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;
const HTML = /<!--|<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/;
const INJECTION = [
  /ignore\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)\s+instructions/i,
  /disregard\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)/i,
  /forget\s+(all\s+)?(your|previous|prior)\s+instructions/i,
  /you\s+are\s+now\s+/i,
  /reveal\s+(your\s+|the\s+)?system\s+prompt/i,
  /system\s+prompt\s*:/i,
];

type Fail = { ok: false; field: string; message: string };
const fail = (field: string, message: string): Fail => ({ ok: false, field, message });
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text outside fenced code blocks and inline code, where HTML would be rendered. */
function proseOf(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|$(?![\s\S]))/gm, '').replace(/`[^`\n]*`/g, '');
}

function optionalString(value: unknown, field: string, max: number): string | null | Fail {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return fail(field, `${field} must be a string`);
  const text = value.trim();
  if (text.length > max) return fail(field, `${field} must be at most ${max} characters`);
  return text.length > 0 ? text : null;
}

function readTags(value: unknown, field: string): string[] | Fail {
  if (value === undefined || value === null) return [];
  let raw: unknown[];
  if (typeof value === 'string') raw = value.split(',');
  else if (Array.isArray(value)) raw = value;
  else return fail(field, `${field} must be a list of strings or a comma-separated string`);
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    if (typeof item !== 'string') return fail(field, `${field} must contain only strings`);
    const tag = item.trim();
    if (tag.length === 0) continue;
    if (tag.length > 50) return fail(field, `${field}: each tag must be 1-50 characters`);
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  if (tags.length > 20) return fail(field, `${field} may hold at most 20 tags`);
  return tags;
}

function readAllowedTools(value: unknown): string[] | Fail {
  const field = 'frontmatter.allowed-tools';
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string' || t.length === 0 || t.length > 200)) {
    return fail(field, `${field} must be a space-separated string or a list of tool names (each 1-200 characters)`);
  }
  if (list.length > 100) return fail(field, `${field} may name at most 100 tools`);
  return list as string[];
}

const failed = (v: unknown): v is Fail => isMap(v) && v.ok === false;

export function parseSkillMd(content: string): SkillParseResult {
  const match = FRONTMATTER.exec(content);
  if (!match) return fail('skill_md_content', 'SKILL.md must start with YAML frontmatter between --- lines');
  const body = content.slice(match[0].length);

  let data: unknown;
  try {
    const doc = parseDocument(match[1] ?? '', { uniqueKeys: true, schema: 'core', prettyErrors: false });
    if (doc.errors.length > 0) {
      const first = doc.errors[0]!.message.split('\n')[0];
      return fail('skill_md_content', `frontmatter is not valid YAML: ${first}`);
    }
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (error) {
    const first = error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
    return fail('skill_md_content', `frontmatter is not valid YAML: ${first}`);
  }
  if (!isMap(data)) return fail('skill_md_content', 'frontmatter must be a YAML mapping of fields');

  const name = data.name;
  if (typeof name !== 'string' || name.length < 1 || name.length > 64 || !NAME.test(name)) {
    return fail(
      'frontmatter.name',
      'frontmatter.name is required: 1-64 characters of a-z, 0-9 and -, without leading, trailing or doubled -',
    );
  }
  const description = typeof data.description === 'string' ? data.description.trim() : '';
  if (description.length < 1 || description.length > 1024) {
    return fail('frontmatter.description', 'frontmatter.description is required: a string of 1-1024 characters');
  }
  const license = optionalString(data.license, 'frontmatter.license', 200);
  if (failed(license)) return license;
  const compatibility = optionalString(data.compatibility, 'frontmatter.compatibility', 500);
  if (failed(compatibility)) return compatibility;
  if (data.metadata !== undefined && data.metadata !== null && !isMap(data.metadata)) {
    return fail('frontmatter.metadata', 'frontmatter.metadata must be a mapping');
  }
  const metadata = isMap(data.metadata) ? data.metadata : {};
  const allowedTools = readAllowedTools(data['allowed-tools']);
  if (failed(allowedTools)) return allowedTools;

  // tags and domain: the top level wins, else metadata.
  const tagsFromTop = data.tags !== undefined && data.tags !== null;
  const tags = readTags(tagsFromTop ? data.tags : metadata.tags, tagsFromTop ? 'frontmatter.tags' : 'frontmatter.metadata.tags');
  if (failed(tags)) return tags;
  const domainFromTop = data.domain !== undefined && data.domain !== null;
  const domainField = domainFromTop ? 'frontmatter.domain' : 'frontmatter.metadata.domain';
  const domain = optionalString(domainFromTop ? data.domain : metadata.domain, domainField, 100);
  if (failed(domain)) return domain;

  const warnings: string[] = [];
  for (const field of Object.keys(data)) {
    if (!KNOWN_FIELDS.has(field)) warnings.push(`unknown frontmatter field "${field}"`);
  }
  if (body.trim().length === 0) warnings.push('the body is empty: describe how to use the skill');
  else if (body.split('\n').length > LONG_BODY_LINES || body.length > LONG_BODY_CHARS) {
    warnings.push(`the body is very long (over ${LONG_BODY_LINES} lines or ${LONG_BODY_CHARS} characters); move detail into referenced files`);
  }
  if (INVISIBLE.test(content.replace(/^\uFEFF/, ''))) warnings.push('the content contains invisible Unicode characters');
  if (HTML.test(proseOf(body).replace(/<(https?|mailto):[^>]*>/gi, ''))) warnings.push('the body contains HTML');
  if (INJECTION.some((pattern) => pattern.test(content))) warnings.push('the content contains text that looks like a prompt injection');

  return {
    ok: true,
    skill: {
      name,
      description,
      license,
      compatibility,
      domain,
      tags,
      allowedTools,
      metadata,
      body,
    },
    warnings,
  };
}
