// Advisories: admins publish them against a range of a skill's versions (as OSV records), anyone reads
// them, and one request answers a whole lock file: for each locked skill and version, the advisories that
// affect it, whether it is yanked or held, and its verdict (what `kreg audit` and `kreg outdated` need).
import { affects, osvRecord, type AdvisorySeverity, type OsvRecord } from '../domain/advisories.js';
import { viewerOf, visibleTo } from '../domain/access.js';
import { notFound } from '../domain/errors.js';
import { ACCESS } from '../domain/operations.js';
import type { Page } from '../store/store.js';
import type { Change, Context } from './context.js';
import { operation } from './operation.js';

export interface AdvisoryInput {
  skill_id: string;
  versions: string;
  severity: AdvisorySeverity;
  summary: string;
  details: string;
}

/** An advisory about a skill, as an OSV record; the skill's versions published so far are listed when affected. */
export async function advisoryFor(
  ctx: Context,
  input: AdvisoryInput,
  at: string,
): Promise<Change<{ data: OsvRecord }>> {
  const skill = await ctx.store.getSkill(input.skill_id);
  if (!skill) throw notFound('skill');
  const record = osvRecord({
    id: ctx.ids.advisoryId(),
    skillId: skill.id,
    publisher: skill.agent_id,
    skillName: skill.name,
    range: input.versions,
    severity: input.severity,
    summary: input.summary,
    details: input.details,
    published: at,
    modified: at,
    versions: await ctx.store.skillVersionNumbers(skill.id),
  });
  return {
    status: 201,
    body: { data: record },
    at: new Date(at),
    write: (response) =>
      ctx.store.publishAdvisory(
        {
          record,
          skillId: skill.id,
          publisher: skill.agent_id,
          skillName: skill.name,
          range: input.versions,
          severity: input.severity,
        },
        response,
      ),
  };
}

export const publishAdvisory = operation(ACCESS.publishAdvisory, (ctx, _admin, input: AdvisoryInput) =>
  advisoryFor(ctx, input, ctx.clock().toISOString()),
);

export const getAdvisory = operation(ACCESS.getAdvisory, async (ctx, _caller, id: string) => {
  const record = await ctx.store.advisory(id);
  if (!record) throw notFound('advisory');
  return record;
});

export const listAdvisories = operation(
  ACCESS.listAdvisories,
  (
    ctx,
    _caller,
    query: { skill_id?: string; modified_since?: string; limit: number; offset: number },
  ): Promise<Page<OsvRecord>> =>
    ctx.store.listAdvisories({
      ...(query.skill_id === undefined ? {} : { skillId: query.skill_id }),
      ...(query.modified_since === undefined ? {} : { modifiedSince: query.modified_since }),
      limit: query.limit,
      offset: query.offset,
    }),
);

/** One locked skill as an audit is answered about it. */
export interface AuditEntry {
  id: string;
  version: string;
  /** false: no such skill or version the caller may see (deleted, or private). */
  found: boolean;
  yanked: boolean;
  held: boolean;
  verdict: string | null;
  advisories: OsvRecord[];
}

export const queryAdvisories = operation(
  ACCESS.queryAdvisories,
  async (ctx, caller, skills: readonly { id: string; version: string }[]): Promise<AuditEntry[]> => {
    const [states, records] = await Promise.all([
      ctx.store.versionStates(skills),
      ctx.store.advisoriesOf([...new Set(skills.map((s) => s.id))]),
    ]);
    return skills.map(({ id, version }, i) => {
      const state = states[i];
      // A private skill is not found by anyone but its publisher and admins: an audit reveals nothing of it.
      // (A held one is: telling those who installed it is what the audit is for.)
      const visible =
        state !== null &&
        state !== undefined &&
        visibleTo(viewerOf(caller), { visibility: state.visibility, agent_id: state.publisher });
      if (!visible) return { id, version, found: false, yanked: false, held: false, verdict: null, advisories: [] };
      const advisories = records.filter((r) =>
        r.affected.some((a) => a.database_specific.skill_id === id && affects(a.database_specific.range, version)),
      );
      return { id, version, found: true, yanked: state.yanked, held: state.held, verdict: state.verdict, advisories };
    });
  },
);
