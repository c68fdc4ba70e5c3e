// Everything tied to an agent, for the agent itself or an admin: its profile, then its keys (prefixes,
// never hashes), units, skills (private ones too, every version with its files), verdicts and full
// history, each read in batches, so the door can stream an export of any size in flat memory.
import { assertMayExport } from '../domain/access.js';
import { notFound } from '../domain/errors.js';
import type { KeyMetadata, KnowledgeUnit, ReputationEvent, ReputationProfile, Verdict } from '../domain/model.js';
import type { SkillExport } from '../store/store.js';
import { operation } from './operation.js';
import { ACCESS } from '../domain/operations.js';

export interface AgentExport {
  agentId: string;
  exportedAt: string;
  /** Score and counts (its history comes whole, below). */
  profile: Omit<ReputationProfile, 'history'>;
  keys: AsyncIterable<KeyMetadata>;
  units: AsyncIterable<KnowledgeUnit>;
  skills: AsyncIterable<SkillExport>;
  verdicts: AsyncIterable<Verdict>;
  history: AsyncIterable<ReputationEvent>;
}

export const exportAgent = operation(ACCESS.exportAgent, async (ctx, caller, agentId: string): Promise<AgentExport> => {
  assertMayExport(caller, agentId);
  const profile = await ctx.store.reputation(agentId, 0);
  if (!profile) throw notFound('agent');
  const { history: _none, ...totals } = profile;
  return {
    agentId,
    exportedAt: ctx.clock().toISOString(),
    profile: totals,
    keys: ctx.store.exportKeys(agentId),
    units: ctx.store.exportUnits(agentId),
    skills: ctx.store.exportSkills(agentId),
    verdicts: ctx.store.exportVerdicts(agentId),
    history: ctx.store.exportHistory(agentId),
  };
});
