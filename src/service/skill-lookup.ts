// Finding a skill by its publisher and name (the address skill:// resources use), as the caller may see it.
import type { Caller } from '../domain/caller.js';
import type { Skill } from '../domain/model.js';
import type { Context } from './context.js';
import { getSkill } from './skills.js';

/** The skill `publisher` publishes as `name`, at its latest version, if the caller may see it; else null. */
export async function findSkillByName(ctx: Context, caller: Caller, publisher: string, name: string): Promise<Skill | null> {
  const identity = await ctx.store.findSkillByName(publisher, name);
  if (!identity) return null;
  return getSkill(ctx, caller, identity.skillId).catch(() => null);
}
