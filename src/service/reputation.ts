// Reading an agent's reputation profile, for every door (the REST route has the same rule inline).
import { isAdmin, type Caller } from '../domain/caller.js';
import { notFound } from '../domain/errors.js';
import type { ReputationProfile } from '../domain/model.js';
import type { Context } from './context.js';

/** The profile with its newest `historyLimit` history items; items about private skills only for the agent itself and admins. */
export async function reputationProfile(ctx: Context, caller: Caller, agentId: string, historyLimit: number): Promise<ReputationProfile> {
  const profile = await ctx.store.reputation(agentId, historyLimit, caller.agentId === agentId || isAdmin(caller));
  if (!profile) throw notFound('agent');
  return profile;
}
