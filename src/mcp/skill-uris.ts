// What the MCP server adds to skill addresses (domain/skill-address.ts): the draft SEP's index resource,
// opaque list cursors, and which media types travel as text. Pure.
export { parseSkillUri, SKILL_MD, skillUri } from '../domain/skill-address.js';

/** The draft SEP's enumeration resource, kept for hosts that implemented that revision (see server.ts). */
export const INDEX_URI = 'skill://index.json';

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

/** Whether a resource of this type is sent as text (else as a base64 blob). */
export const isTextType = (mimeType: string) => mimeType.startsWith('text/') || /(json|yaml|xml|toml)$/.test(mimeType);
