// What a list asks and answers (the backends' lists.ts): the filters and paging of the skill and unit
// lists, who is looking, and the page of items with the exact total. Re-exported from store.ts.
import type { UnitType } from '../domain/model.js';

export interface Page<T> {
  items: T[];
  total: number;
}

/** Who is looking, for private skills: the owner sees its own, `everything` (admins) sees all. */
export interface Viewer {
  agentId: string | null;
  everything: boolean;
}

export interface SkillQuery {
  terms: string[];
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
  terms: string[];
  types: UnitType[];
  domain?: string;
  minQuality?: number;
  limit: number;
  offset: number;
}
