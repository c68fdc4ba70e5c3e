// Skills as agent hosts find them: by publisher and name (the address skill:// resources use), and a page
// of the skills list with each one's frontmatter and file listing as kept at publication, so a listing
// costs what a REST list costs (no SKILL.md is read or parsed). Private skills only for whom may see them.
import { canSeeSkill } from '../domain/access.js';
import type { Caller } from '../domain/caller.js';
import type { HostSkill } from '../domain/host-skills.js';
import type { Skill } from '../domain/model.js';
import type { Context } from './context.js';
import { getSkill, listSkills } from './skills.js';

/** The skill `publisher` publishes as `name`, at its latest version, if the caller may see it; else null. */
export async function findSkillByName(ctx: Context, caller: Caller, publisher: string, name: string): Promise<Skill | null> {
  const identity = await ctx.store.findSkillByName(publisher, name);
  if (!identity) return null;
  return getSkill(ctx, caller, identity.skillId).catch(() => null);
}

/** The skill `publisher` publishes as `name`, as hosts are served it, when the caller may see it and a version is not yanked. */
export async function findHostSkill(ctx: Context, caller: Caller, publisher: string, name: string): Promise<HostSkill | null> {
  const identity = await ctx.store.findSkillByName(publisher, name);
  if (!identity) return null;
  const [skill] = await ctx.store.hostSkills([identity.skillId]);
  return skill && skill.listed && canSeeSkill(caller, { visibility: skill.visibility, agent_id: skill.agentId }) ? skill : null;
}

/** A page of the skills list (best first) as hosts are served them; `read` counts the list items the page covered. */
export async function hostSkillPage(
  ctx: Context,
  caller: Caller,
  page: { limit: number; offset: number },
): Promise<{ skills: HostSkill[]; read: number; total: number }> {
  const list = await listSkills(ctx, caller, page);
  const found = new Map((await ctx.store.hostSkills(list.items.map((s) => s.id))).map((s) => [s.id, s]));
  const skills = list.items.map((s) => found.get(s.id)).filter((s): s is HostSkill => s !== undefined && s.listed);
  return { skills, read: list.items.length, total: list.total };
}
