// What both backends' migrations share, written once: the fields an existing skill's SKILL.md gives its
// first version, the agents' storage usage, and what versions keep for agent hosts.
import { sha256Digest } from '../domain/bundles.js';
import type { SkillWarning } from '../domain/model.js';
import { hostFrontmatter, parseSkillMd } from '../domain/skill-md.js';
import { FIRST_VERSION, isRelease, readVersion, versionSortKey } from '../domain/versions.js';

/** A skill published before versions existed, read again by today's parser as its first version. */
export function firstVersionOf(
  skillMd: string,
  name: string,
): {
  version: string;
  digest: string;
  displayName: string;
  conformant: boolean;
  warnings: SkillWarning[];
  body: string;
} {
  const parsed = parseSkillMd(skillMd);
  const doc = parsed.ok ? parsed.skill : null;
  return {
    version: readVersion(doc?.version ?? null).version ?? FIRST_VERSION,
    digest: sha256Digest(Buffer.from(skillMd, 'utf8')),
    displayName: doc?.displayName ?? name,
    conformant: parsed.ok ? parsed.conformant : false,
    warnings: parsed.ok ? parsed.warnings : [],
    body: doc?.body ?? '',
  };
}

/** Every agent's units, skills and stored bytes, counted from its rows (the same SQL on both backends). */
export const AGENT_USAGE_BACKFILL = `UPDATE agents SET
  unit_count = (SELECT count(*) FROM knowledge_units ku WHERE ku.agent_id = agents.agent_id),
  skill_count = (SELECT count(*) FROM skills s WHERE s.agent_id = agents.agent_id),
  stored_bytes = (SELECT coalesce(sum(bytes), 0) FROM knowledge_units ku WHERE ku.agent_id = agents.agent_id)
    + (SELECT coalesce(sum(bytes), 0) FROM skills s WHERE s.agent_id = agents.agent_id);`;

/** What a version keeps for agent hosts: SKILL.md's digest and size, and the frontmatter as JSON (null: not served). */
export function hostFieldsOf(
  skillMd: string,
  name: string,
  conformant: boolean,
): [digest: string, bytes: number, frontmatter: string | null] {
  return [sha256Digest(skillMd), Buffer.byteLength(skillMd, 'utf8'), hostFrontmatter(skillMd, name, conformant)];
}

/** The columns a version keeps for agent hosts (the same SQL on both backends). */
export const HOST_FIELDS_SQL = `
ALTER TABLE skill_versions ADD COLUMN skill_md_digest text NOT NULL DEFAULT '';
ALTER TABLE skill_versions ADD COLUMN skill_md_bytes integer NOT NULL DEFAULT 0;
ALTER TABLE skill_versions ADD COLUMN frontmatter text;
`;

/** A stored version's place in semver precedence; a version stored before the bounds that semver cannot read sorts first. */
export function versionOrderOf(version: string): { sortKey: string; release: boolean } {
  try {
    return { sortKey: versionSortKey(version), release: isRelease(version) };
  } catch {
    return { sortKey: '', release: false };
  }
}
