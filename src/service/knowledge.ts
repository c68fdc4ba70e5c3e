// Knowledge units: contribute, read, list and search, validate, delete; each an operation with its access.
import { assertMayDeleteUnit, assertMayValidate, unitVisibleTo, viewerOf } from '../domain/access.js';
import type { Caller } from '../domain/caller.js';
import { badRequest, notFound } from '../domain/errors.js';
import { normalizeUnitInput } from '../domain/knowledge.js';
import type { KnowledgeUnit, KnowledgeUnitInput } from '../domain/model.js';
import { unitBaseQuality, unitQuality } from '../domain/quality.js';
import { REWARD_MILLIS } from '../domain/reputation.js';
import type { FilterParams, UNIT_FILTERS } from '../domain/filters.js';
import { unitListCondition } from '../domain/lists.js';
import { textFilter } from '../domain/query-text.js';
import type { UnitSummary } from '../domain/summaries.js';
import { decideVerdict, verdictWeight } from '../domain/verdicts.js';
import type { Page } from '../store/store.js';
import { quotaOf, withinQuota, type Change, type Context } from './context.js';
import { operation } from './operation.js';
import { searchPage } from './search.js';
import { ACCESS } from '../domain/operations.js';
import { scanUnit } from '../scan/index.js';
import { refuseSecrets, scannerHold, securityOf } from './security.js';

export type UnitListParams = FilterParams<typeof UNIT_FILTERS> & { q?: string; limit: number; offset: number };

export const listUnits = operation(
  ACCESS.listUnits,
  async (ctx: Context, caller, params: UnitListParams): Promise<Page<UnitSummary> & { capped?: boolean }> => {
    const condition = unitListCondition(viewerOf(caller), params);
    const terms = textFilter(params.q);
    if (terms === null) return { items: [], total: 0, capped: false };
    if (terms.length > 0) return searchPage<UnitSummary>(ctx, 'unit', params.q!, condition, params);
    return ctx.store.listUnits({ condition, limit: params.limit, offset: params.offset });
  },
);

/** A unit the caller may see; 404 otherwise (a held unit exists only for its contributor and admins). */
async function findUnit(ctx: Context, caller: Caller, id: string): Promise<KnowledgeUnit> {
  const unit = await ctx.store.getUnit(id);
  if (!unit || !unitVisibleTo(viewerOf(caller), unit)) throw notFound('knowledge unit');
  return unit;
}

export const getUnit = operation(ACCESS.getUnit, (ctx, caller, id: string) => findUnit(ctx, caller, id));

/**
 * A new unit from the caller (+0.2 reputation), scanned (refused with credentials, held when malicious),
 * prepared for the door to write.
 */
export const contributeUnit = operation(
  ACCESS.contributeUnit,
  async (
    ctx,
    agent,
    body: KnowledgeUnitInput,
  ): Promise<Change<{ data: KnowledgeUnit; quality_score: number; warnings: string[] }>> => {
    const checked = normalizeUnitInput(body);
    if (!checked.ok) throw badRequest(checked.message);
    const input = checked.unit;
    const at = ctx.clock();
    const now = at.toISOString();
    const baseQuality = unitBaseQuality(input);
    const unit: KnowledgeUnit = {
      id: ctx.ids.unitId(),
      agent_id: agent.agentId,
      title: input.title,
      type: input.type,
      domain: input.domain,
      content: { description: input.content.description, examples: input.content.examples },
      metadata: { source: input.metadata.source, confidence: input.metadata.confidence },
      tags: input.tags ?? [],
      quality_score: unitQuality(baseQuality, 0, 0),
      validations: { valid: 0, invalid: 0 },
      created_at: now,
      updated_at: now,
    };
    const scan = await scanUnit(unit);
    refuseSecrets(scan);
    unit.security = securityOf(scan, now);
    // Units are public: a held one leaves every door but its contributor's and admins'.
    const hold =
      scannerHold(ctx, unit.security, { kind: 'unit', id: unit.id, version: null, public: true }, now) ?? undefined;
    if (hold) unit.held = { reason: hold.reason, by: 'scanner', at: now };
    return {
      status: 201,
      body: { data: unit, quality_score: unit.quality_score, warnings: checked.warnings },
      at,
      write: (response) =>
        withinQuota(agent, () =>
          ctx.store.contributeUnit(
            unit,
            baseQuality,
            REWARD_MILLIS.contribute_knowledge,
            response,
            quotaOf(ctx, agent),
            hold,
          ),
        ),
    };
  },
);

export interface VerdictInput {
  valid: boolean;
  feedback?: string;
}

/** The caller's verdict on another agent's unit, prepared for the door to write. */
export const validateUnit = operation(
  ACCESS.validateUnit,
  async (
    ctx,
    agent,
    id: string,
    input: VerdictInput,
  ): Promise<Change<{ data: { id: string; validated: boolean; feedback: string } }>> => {
    // The verdict counts with the validator's standing now (its contributions still held); both reads at once.
    const [unit, standing] = await Promise.all([findUnit(ctx, agent, id), ctx.store.reputation(agent.agentId, 0)]);
    assertMayValidate(agent, unit);
    const feedback = input.feedback ?? '';
    const weight = verdictWeight(standing?.contributions ?? 0);
    const at = ctx.clock();
    const verdict = {
      unitId: id,
      agentId: agent.agentId,
      valid: input.valid,
      feedback,
      at: at.toISOString(),
      weight,
      decide: decideVerdict,
    };
    return {
      status: 200,
      body: { data: { id, validated: input.valid, feedback } },
      at,
      write: async (response) => {
        const outcome = await ctx.store.recordVerdict(verdict, response);
        if (!outcome.recorded) throw notFound('knowledge unit');
      },
    };
  },
);

/** Deletes a unit for good: its contributor (with write scope) or an admin. */
export const deleteUnit = operation(
  ACCESS.deleteUnit,
  async (ctx, caller, id: string): Promise<{ data: { id: string; deleted: boolean } }> => {
    const unit = await findUnit(ctx, caller, id);
    assertMayDeleteUnit(caller, unit);
    if (!(await ctx.store.deleteUnit(id, ctx.clock().toISOString()))) throw notFound('knowledge unit');
    return { data: { id, deleted: true } };
  },
);
