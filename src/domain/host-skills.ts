// A skill as agent hosts are served it (MCP's skills/list, resources/list, skill:// reads): its default
// version's frontmatter and the listing of its files, without content. Stores keep these fields with
// each version; hostSkillOf builds the same from a whole skill read over the API. Pure.
import { sha256Digest } from './bundles.js';
import type { Skill, SkillFile, Visibility } from './model.js';
import { hostFrontmatter } from './skill-md.js';

export interface HostSkill {
  id: string;
  agentId: string;
  name: string;
  visibility: Visibility;
  version: string;
  /** false when every version is yanked: hosts are then not served the skill. */
  listed: boolean;
  /** Held: served only to its publisher and admins. */
  held: boolean;
  description: string;
  /** The frontmatter as JSON text; null when the skill is not served to hosts (it does not conform). */
  frontmatter: string | null;
  skillMd: { digest: string; size: number };
  /** The bundle's files (SKILL.md aside), by path. */
  files: SkillFile[];
}

/** A whole skill as hosts are served it. */
export function hostSkillOf(skill: Skill): HostSkill {
  return {
    id: skill.id,
    agentId: skill.agent_id,
    name: skill.name,
    visibility: skill.visibility,
    version: skill.version,
    listed: skill.latest_version !== null,
    held: skill.held !== undefined,
    description: skill.description,
    frontmatter: hostFrontmatter(skill.skill_md_content, skill.name, skill.conformance.conformant),
    skillMd: { digest: sha256Digest(skill.skill_md_content), size: Buffer.byteLength(skill.skill_md_content, 'utf8') },
    files: skill.files,
  };
}
