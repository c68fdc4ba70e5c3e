// What a list asks and answers (reads/skills.ts, reads/units.ts): the filters and paging of the skill and
// unit lists, who is looking, and the page of items with the exact total. Searches are the search index's;
// lists filter and order. Re-exported from store.ts.
import type { Condition } from '../domain/filters.js';

export interface Page<T> {
  items: T[];
  total: number;
}

export type { Viewer } from '../domain/access.js';

/** A page of a list: the items its condition admits (domain/filters.ts: visibility and filters alike), in the list order. */
export interface ListQuery {
  condition: Condition;
  limit: number;
  offset: number;
}
export type SkillQuery = ListQuery;
export type UnitQuery = ListQuery;
