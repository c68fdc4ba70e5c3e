// What the "newest" reads ask (the backends' recent-reads.ts): the newest skills or units, by when each
// was first published, optionally of one agent. The web pages' home and agent pages read them.
import type { Viewer } from './list-queries.js';

export interface RecentUnitQuery {
  /** Only this contributor's units. */
  agentId?: string;
  limit: number;
}

export interface RecentSkillQuery extends RecentUnitQuery {
  /** Who is looking: private skills only for their publisher and admins, as in lists. */
  viewer: Viewer;
}
