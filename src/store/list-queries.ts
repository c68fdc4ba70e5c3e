// What a list asks and answers (reads/skills.ts, reads/units.ts): the filters and paging of the skill and
// unit lists, who is looking, and the page of items with the exact total. Searches are the search index's;
// lists filter and order. Re-exported from store.ts.
import type { Viewer } from '../domain/access.js';
import type { UnitType } from '../domain/model.js';

export interface Page<T> {
  items: T[];
  total: number;
}

export type { Viewer } from '../domain/access.js';

export interface SkillQuery {
  domain?: string;
  tags: string[];
  minQuality?: number;
  /** Only skills whose default version follows (true) or breaks (false) the Agent Skills format. */
  conformant?: boolean;
  /** Only this publisher's skills. */
  agentId?: string;
  /** Only skills of this name. */
  name?: string;
  limit: number;
  offset: number;
  viewer: Viewer;
}

export interface UnitQuery {
  types: UnitType[];
  domain?: string;
  minQuality?: number;
  limit: number;
  offset: number;
}
