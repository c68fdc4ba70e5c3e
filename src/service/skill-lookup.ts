// Skills as agent hosts find them: by publisher and name (the address skill:// resources use), and a page
// of the skills list with each one's frontmatter and file listing as kept at publication, so a listing
// costs what a REST list costs (no SKILL.md is read or parsed). Private skills only for whom may see them.
import { canSeeSkill } from '../domain/access.js';
import type { HostSkill } from '../domain/host-skills.js';
import { operation } from './operation.js';
import { listSkills } from './skills.js';
import { ACCESS } from '../domain/operations.js';

/** The skill `publisher` publishes as `name`, as hosts are served it, when the caller may see it and a version is not yanked. */
export const findHostSkill = operation(
  ACCESS.findHostSkill,
  async (ctx, caller, publisher: string, name: string): Promise<HostSkill | null> => {
    const identity = await ctx.store.findSkillByName(publisher, name);
    if (!identity) return null;
    const [skill] = await ctx.store.hostSkills([identity.skillId]);
    return skill &&
      skill.listed &&
      canSeeSkill(caller, { visibility: skill.visibility, agent_id: skill.agentId, held: skill.held })
      ? skill
      : null;
  },
);

/** A page of the skills list (best first) as hosts are served them; `read` counts the list items the page covered. */
export const hostSkillPage = operation(
  ACCESS.hostSkillPage,
  async (
    ctx,
    caller,
    page: { limit: number; offset: number },
  ): Promise<{ skills: HostSkill[]; read: number; total: number }> => {
    const list = await listSkills(ctx, caller, page);
    const found = new Map((await ctx.store.hostSkills(list.items.map((s) => s.id))).map((s) => [s.id, s]));
    const skills = list.items.map((s) => found.get(s.id)).filter((s): s is HostSkill => s !== undefined && s.listed);
    return { skills, read: list.items.length, total: list.total };
  },
);
