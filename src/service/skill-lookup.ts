// Finding a skill by its publisher and name (the address skill:// resources use), as the caller may see it.
import { canSeeSkill } from '../domain/access.js';
import type { Caller } from '../domain/caller.js';
import type { Skill } from '../domain/model.js';
import type { Context } from './context.js';

/**
 * The newest skill named `name` that `publisher` contributed and the caller may see, or null.
 *
 * Until skills are keyed by publisher and name (issue 14: one skill id per name, with versions), this reads
 * the publisher's skills in the store's batches and keeps the newest match; the cost grows with one
 * publisher's skills (bounded by its tier's quota), never with the table. With issue 14 it becomes one
 * store lookup.
 */
export async function findSkillByName(ctx: Context, caller: Caller, publisher: string, name: string): Promise<Skill | null> {
  let found: Skill | null = null;
  for await (const skill of ctx.store.exportSkills(publisher)) {
    if (skill.name !== name || !canSeeSkill(caller, skill)) continue;
    if (!found || skill.created_at > found.created_at || (skill.created_at === found.created_at && skill.id > found.id)) found = skill;
  }
  return found;
}
