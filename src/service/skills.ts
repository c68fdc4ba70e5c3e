// Skills as packages: read a skill at its default or a named version, its versions, files and archive,
// yank and delete, list and search (private skills only for their owner and admins), and the discovery
// index; each an operation with its access. Publishing is in skill-publish.ts.
import { assertMayManageSkill, canSeeSkill, viewerOf, visibleCondition } from '../domain/access.js';
import type { Agent, Caller } from '../domain/caller.js';
import { bundleArchive } from '../domain/bundles.js';
import { notFound } from '../domain/errors.js';
import type { Skill, SkillVersionSummary, Visibility } from '../domain/model.js';
import type { FilterParams, SKILL_FILTERS } from '../domain/filters.js';
import { skillListCondition } from '../domain/lists.js';
import { textFilter } from '../domain/query-text.js';
import type { SkillSummary } from '../domain/summaries.js';
import type { Page, SkillFileContent } from '../store/store.js';
import type { Context } from './context.js';
import { operation } from './operation.js';
import type { Published } from './skill-publish.js';
import { searchPage } from './search.js';
import { ACCESS } from '../domain/operations.js';

export type SkillListParams = FilterParams<typeof SKILL_FILTERS> & { q?: string; limit: number; offset: number };

export const listSkills = operation(
  ACCESS.listSkills,
  async (ctx, caller, params: SkillListParams): Promise<Page<SkillSummary> & { capped?: boolean }> => {
    const condition = skillListCondition(viewerOf(caller), params);
    const terms = textFilter(params.q);
    if (terms === null) return { items: [], total: 0, capped: false };
    if (terms.length > 0) return searchPage<SkillSummary>(ctx, 'skill', params.q!, condition, params);
    return ctx.store.listSkills({ condition, limit: params.limit, offset: params.offset });
  },
);

/** A skill the caller may see, at `version` or its default version; 404 otherwise (private ones do not exist for others). */
async function visibleSkill(ctx: Context, caller: Caller, id: string, version?: string): Promise<Skill> {
  const skill = await ctx.store.getSkill(id, version);
  if (!skill || !canSeeSkill(caller, skill))
    throw notFound(version === undefined ? 'skill' : `version ${version} of this skill`);
  return skill;
}

export const getSkill = operation(ACCESS.getSkill, (ctx, caller, id: string, version?: string) =>
  visibleSkill(ctx, caller, id, version),
);

/** A page of a skill's versions, newest first by semver precedence (yanked ones flagged). */
export const listSkillVersions = operation(
  ACCESS.listSkillVersions,
  async (ctx, caller, id: string, page: { limit: number; offset: number }): Promise<Page<SkillVersionSummary>> => {
    const skill = await visibleSkill(ctx, caller, id);
    // Held versions exist only for the publisher and admins.
    const withHeld = visibleCondition(viewerOf(caller)) === null || caller.agentId === skill.agent_id;
    return (await ctx.store.listSkillVersions(id, page, withHeld)) ?? { items: [], total: 0 };
  },
);

/** A file of the skill at `version` (null: its default version), with the skill it belongs to. */
export const getSkillFile = operation(
  ACCESS.getSkillFile,
  async (
    ctx,
    caller,
    id: string,
    version: string | null,
    path: string,
  ): Promise<{ skill: Skill; file: SkillFileContent & { path: string } }> => {
    const skill = await visibleSkill(ctx, caller, id, version ?? undefined);
    const file = await ctx.store.getSkillFile(id, version, path);
    if (!file) throw notFound(`file ${path}`);
    return { skill, file: { ...file, path } };
  },
);

/** A version as one deterministic ZIP archive (SKILL.md and its files at the root), with the skill it belongs to. */
export const getSkillArchive = operation(
  ACCESS.getSkillArchive,
  async (ctx, caller, id: string, version: string): Promise<{ skill: Skill; archive: Buffer }> => {
    const skill = await visibleSkill(ctx, caller, id, version);
    const bundle = await ctx.store.getSkillBundle(skill.id, version);
    if (!bundle) throw notFound(`version ${version} of this skill`);
    return { skill, archive: Buffer.from(bundleArchive(bundle.skillMd, bundle.files)) };
  },
);

/** Public skills at their latest version, for the discovery index (streamed by the door). */
export const discoveryIndex = operation(ACCESS.discoveryIndex, async (ctx) => ctx.store.discoveryIndex());

// ---- yank and delete -------------------------------------------------------------------------------

/** A skill the caller may withdraw or erase (domain/access.ts); others' private skills do not exist. */
async function ownedSkill(ctx: Context, caller: Agent, id: string): Promise<Skill> {
  const skill = await visibleSkill(ctx, caller, id);
  assertMayManageSkill(caller, skill);
  return skill;
}

/** Yanks (or restores) a version: still readable by its number, never chosen as the default. */
export const setYanked = operation(
  ACCESS.setYanked,
  async (ctx, caller, id: string, version: string, yanked: boolean): Promise<Skill> => {
    await ownedSkill(ctx, caller, id);
    const outcome = await ctx.store.setSkillYanked(id, version, yanked, ctx.clock().toISOString());
    if (outcome === 'not_found') throw notFound(`version ${version} of this skill`);
    return (await ctx.store.getSkill(id, version))!;
  },
);

/**
 * Who sees a skill, changed explicitly by its publisher (or an admin): visibility belongs to the skill, so
 * every version follows, and the answer says which versions a change to public exposes.
 */
export const setVisibility = operation(
  ACCESS.setVisibility,
  async (ctx, caller, id: string, visibility: Visibility): Promise<Published> => {
    const skill = await ownedSkill(ctx, caller, id);
    const outcome = await ctx.store.setSkillVisibility(id, visibility, ctx.clock().toISOString());
    if (outcome === 'not_found') throw notFound('skill');
    const warnings: string[] = [];
    if (outcome === 'changed' && visibility === 'public') {
      const versions = (await ctx.store.listSkillVersions(id, { limit: 100, offset: 0 }))!;
      const shown = versions.items.map((v) => v.version).join(', ');
      warnings.push(
        `every version of ${skill.name} is now public: ${shown}${versions.total > versions.items.length ? ` and ${versions.total - versions.items.length} more` : ''}`,
      );
    }
    return { data: (await ctx.store.getSkill(id))!, warnings };
  },
);

export const deleteSkill = operation(
  ACCESS.deleteSkill,
  async (ctx, caller, id: string): Promise<{ data: { id: string; deleted: boolean } }> => {
    await ownedSkill(ctx, caller, id);
    if (!(await ctx.store.deleteSkill(id, ctx.clock().toISOString()))) throw notFound('skill');
    return { data: { id, deleted: true } };
  },
);
