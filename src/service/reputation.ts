// An agent's reputation profile, for every door: items about private skills only for the agent itself
// and admins (domain/access.ts).
import { mayReadPrivateHistory } from '../domain/access.js';
import { notFound } from '../domain/errors.js';
import type { ReputationProfile } from '../domain/model.js';
import { operation } from './operation.js';
import { ACCESS } from '../domain/operations.js';

/** The profile with its newest `historyLimit` history items. */
export const reputationProfile = operation(
  ACCESS.reputationProfile,
  async (ctx, caller, agentId: string, historyLimit: number): Promise<ReputationProfile> => {
    const profile = await ctx.store.reputation(agentId, historyLimit, mayReadPrivateHistory(caller, agentId));
    if (!profile) throw notFound('agent');
    return profile;
  },
);
