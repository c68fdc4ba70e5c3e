// A skill's default version as MCP hosts are served it (HostSkill): its row joined from the skill and the
// version, and its files by version.
import type { SkillFile, Visibility } from '../domain/model.js';
import { toSkillFile, type SkillFileRow } from './skill-rows.js';
import type { HostSkill } from './store.js';

/** A skill's default version as hosts are served it (see HostSkill): joined skill `s` and version `v`. */
export const HOST_SKILL_COLUMNS = `s.id, s.agent_id, s.name, s.visibility, s.latest_version_seq, v.seq AS version_seq, v.version, v.description, v.frontmatter,
  v.skill_md_digest, v.skill_md_bytes, s.held_at IS NOT NULL OR s.version_held = true AS held`;

export interface HostSkillRow {
  id: string;
  agent_id: string;
  name: string;
  visibility: string;
  latest_version_seq: number | string | null;
  version_seq: number | string;
  version: string;
  description: string;
  frontmatter: string | null;
  skill_md_digest: string;
  skill_md_bytes: number | string;
  held: unknown;
}

/** Host skills from their rows and their versions' file rows (`version_seq` on each). */
export function toHostSkills(
  found: HostSkillRow[],
  files: (SkillFileRow & { version_seq: number | string })[],
): HostSkill[] {
  const byVersion = new Map<string, SkillFile[]>();
  for (const file of files) {
    const key = String(file.version_seq);
    const list = byVersion.get(key);
    if (list) list.push(toSkillFile(file));
    else byVersion.set(key, [toSkillFile(file)]);
  }
  return found.map((row) => ({
    id: row.id,
    agentId: row.agent_id,
    name: row.name,
    visibility: row.visibility as Visibility,
    version: row.version,
    listed: row.latest_version_seq !== null,
    held: row.held === true || row.held === 1,
    description: row.description,
    frontmatter: row.frontmatter,
    skillMd: { digest: row.skill_md_digest, size: Number(row.skill_md_bytes) },
    files: byVersion.get(String(row.version_seq)) ?? [],
  }));
}
