// Browsing for people (the web pages): the registry at a glance, and an agent with what it published.
// Built from the same list, read and profile operations as every other door, under the same rules: a
// private skill appears only for its publisher and admins, in counts as in items.
import { viewerOf } from '../domain/access.js';
import type { ReputationProfile } from '../domain/model.js';
import type { SkillSummary, UnitSummary } from '../domain/summaries.js';
import { listUnits } from './knowledge.js';
import { operation } from './operation.js';
import { reputationProfile } from './reputation.js';
import { listSkills } from './skills.js';
import { ACCESS } from '../domain/operations.js';

export interface Shelf<T> {
  /** Every item the caller may see, not just the shelves' few. */
  total: number;
  /** Newest first (by first publication). */
  newest: T[];
  /** By quality, then newest: the lists' own order. */
  best: T[];
}

export interface RegistryOverview {
  skills: Shelf<SkillSummary>;
  units: Shelf<UnitSummary>;
}

/** Counts, the newest and the best-rated skills and units, `size` of each, as the caller may see them. */
export const registryOverview = operation(
  ACCESS.registryOverview,
  async (ctx, caller, size: number): Promise<RegistryOverview> => {
    const [bestSkills, bestUnits, newestSkills, newestUnits] = await Promise.all([
      listSkills(ctx, caller, { limit: size, offset: 0 }),
      listUnits(ctx, caller, { limit: size, offset: 0 }),
      ctx.store.recentSkills({ viewer: viewerOf(caller), limit: size }),
      ctx.store.recentUnits({ limit: size }),
    ]);
    return {
      skills: { total: bestSkills.total, newest: newestSkills, best: bestSkills.items },
      units: { total: bestUnits.total, newest: newestUnits, best: bestUnits.items },
    };
  },
);

export interface AgentOverview {
  /** Score, counts and the newest history items (items about private skills only for the agent itself and admins). */
  profile: ReputationProfile;
  /** The agent's skills the caller may see, best first, and how many there are. */
  skills: { items: SkillSummary[]; total: number };
  /** The agent's newest units. */
  units: UnitSummary[];
}

/** An agent as a page shows it; 404 for an agent id never seen. */
export const agentOverview = operation(
  ACCESS.agentOverview,
  async (
    ctx,
    caller,
    agentId: string,
    sizes: { skills: number; units: number; history: number },
  ): Promise<AgentOverview> => {
    const profile = await reputationProfile(ctx, caller, agentId, sizes.history);
    const [skills, units] = await Promise.all([
      listSkills(ctx, caller, { publisher: agentId, limit: sizes.skills, offset: 0 }),
      ctx.store.recentUnits({ agentId, limit: sizes.units }),
    ]);
    return { profile, skills: { items: skills.items, total: skills.total }, units };
  },
);
