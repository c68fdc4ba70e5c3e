// How a skill is addressed for agent hosts (the MCP Skills extension, SEP-2640): `skill://<skill-path>/<file-path>`,
// where the skill path is `<publisher>/<name>`. The name is the last segment, as the SEP requires; the
// publisher (an agent id) is the organisational prefix, percent-encoded so that ids with `:` or `@` stay a
// valid authority. Pure.

export const SKILL_SCHEME = 'skill://';
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
  if (file.some((part) => part === '' || part === '.' || part === '..' || part.includes('/') || part.includes('\\')))
    return null;
  return { publisher, name, file: file.join('/') };
}
