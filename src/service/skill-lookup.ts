// Finding a skill by its publisher and name (the address skill:// resources use), as the caller may see it.
import type { Caller } from '../domain/caller.js';
import type { Skill } from '../domain/model.js';
import type { SkillSummary } from '../domain/summaries.js';
import type { Context } from './context.js';
import { getSkill, listSkills } from './skills.js';

/** Pages of a name search read, at most: the cost is bounded by this, never by a publisher's skills. */
export const NAME_SEARCH_PAGES = 5;
const PAGE = 100;

const newer = (a: SkillSummary, b: SkillSummary) => a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);

/**
 * The newest skill named `name` that `publisher` contributed and the caller may see, or null.
 *
 * Until skills are keyed by publisher and name (issue 14: one skill id per name, with versions), this is a
 * search for the name's words (the name is the most heavily weighted field, so the skill ranks among the
 * first) over at most NAME_SEARCH_PAGES pages, keeping exact matches. With issue 14 it becomes one lookup.
 */
export async function findSkillByName(ctx: Context, caller: Caller, publisher: string, name: string): Promise<Skill | null> {
  let found: SkillSummary | null = null;
  for (let page = 0; page < NAME_SEARCH_PAGES; page++) {
    const result = await listSkills(ctx, caller, { q: name.replaceAll('-', ' '), limit: PAGE, offset: page * PAGE });
    for (const skill of result.items) {
      if (skill.agent_id === publisher && skill.name === name && (!found || newer(skill, found))) found = skill;
    }
    if ((page + 1) * PAGE >= result.total) break;
  }
  return found ? getSkill(ctx, caller, found.id) : null;
}
