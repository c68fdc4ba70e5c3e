// skill:// addresses (MCP Skills extension, SEP-2640): `skill://<skill-path>/<file-path>`, where the skill path
// is `<publisher>/<name>`. The name is the last segment, as the SEP requires; the publisher (an agent id) is the
// organisational prefix, percent-encoded so that ids with `:` or `@` stay a valid authority. Pure functions.
import { createHash } from 'node:crypto';

export const SKILL_SCHEME = 'skill://';
/** The draft SEP's enumeration resource, kept for hosts that implemented that revision (see server.ts). */
export const INDEX_URI = 'skill://index.json';
export const SKILL_MD = 'SKILL.md';

/** The Agent Skills name rule: 1..64 of a-z, 0-9 and single inner hyphens. */
const NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface SkillAddress {
  publisher: string;
  name: string;
  /** The file's path inside the skill, `/`-separated (`SKILL.md`, `references/FORMS.md`). */
  file: string;
}

const encodeSegments = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** The skill's path: `<publisher>/<name>`. */
export function skillPath(skill: { agent_id: string; name: string }): string {
  return `${encodeURIComponent(skill.agent_id)}/${skill.name}`;
}

/** The URI of one file of a skill (SKILL.md by default). */
export function skillUri(skill: { agent_id: string; name: string }, file = SKILL_MD): string {
  return `${SKILL_SCHEME}${skillPath(skill)}/${encodeSegments(file)}`;
}

/** A skill:// URI read back into publisher, name and file, or null when it is not one this registry serves. */
export function parseSkillUri(uri: string): SkillAddress | null {
  if (!uri.startsWith(SKILL_SCHEME) || /[?#]/.test(uri)) return null;
  const segments = uri.slice(SKILL_SCHEME.length).split('/');
  if (segments.length < 3) return null;
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
  const [publisher, name, ...file] = decoded as [string, string, ...string[]];
  if (!publisher || !NAME.test(name)) return null;
  if (file.some((part) => part === '' || part === '.' || part === '..' || part.includes('/') || part.includes('\\'))) return null;
  return { publisher, name, file: file.join('/') };
}

/** A SHA-256 digest as the SEP writes it: `sha256:` and 64 lowercase hex digits. */
export function sha256Digest(content: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

/** Opaque list cursors: the offset of the next page. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

/** The offset a cursor stands for, or null when it is not a cursor this server gave out. */
export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    return Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : null;
  } catch {
    return null;
  }
}

const TEXT_TYPES: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  sh: 'text/x-shellscript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
};

/** A file's media type by its extension; unknown kinds are bytes. */
export function mimeTypeOf(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return TEXT_TYPES[extension] ?? 'application/octet-stream';
}

/** Whether a resource of this type is sent as text (else as a base64 blob). */
export const isTextType = (mimeType: string) => mimeType.startsWith('text/') || mimeType.endsWith('json') || mimeType.endsWith('yaml') || mimeType.endsWith('xml');

/** A digest as the SEP writes it, from `sha256:<hex>` or bare hex. */
export function sepDigest(digest: string): string {
  return /^[0-9a-fA-F]{64}$/.test(digest) ? `sha256:${digest.toLowerCase()}` : digest;
}
