// Skills as packages: read a skill at its default or a named version, its versions, files and archive,
// yank and delete, list and search (private skills only for their owner and admins), and the discovery
// index; each an operation with its access. Publishing is in skill-publish.ts.
import { assertMayManageSkill, canSeeSkill, skillViewer } from '../domain/access.js';
import type { Agent, Caller } from '../domain/caller.js';
import { bundleArchive } from '../domain/bundles.js';
import { badRequest, notFound } from '../domain/errors.js';
import type { Skill, SkillVersionSummary, Visibility } from '../domain/model.js';
import { commaList, textFilter } from '../domain/search.js';
import type { SkillSummary } from '../domain/summaries.js';
import type { Page, SkillFileContent } from '../store/store.js';
import type { Context } from './context.js';
import { operation } from './operation.js';
import type { Published } from './skill-publish.js';
import { searchIndex, skillFilter } from './search.js';

const MAX_TAG_FILTERS = 20;

export interface SkillListParams {
  q?: string;
  domain?: string;
  tags?: string;
  min_quality?: number;
  conformant?: boolean;
  publisher?: string;
  name?: string;
  limit: number;
  offset: number;
}

export const listSkills = operation(
  'public',
  async (ctx, caller, params: SkillListParams): Promise<Page<SkillSummary> & { capped?: boolean }> => {
    const tagList = commaList(params.tags);
    if (tagList.length > MAX_TAG_FILTERS)
      throw badRequest(`query parameter tags may name at most ${MAX_TAG_FILTERS} tags`);
    if (tagList.some((t) => t.length > 50)) throw badRequest('query parameter tags: each tag is at most 50 characters');
    const terms = textFilter(params.q);
    if (terms === null) return { items: [], total: 0, capped: false };
    const filters = {
      viewer: skillViewer(caller),
      domain: params.domain,
      tags: [...new Set(tagList.map((t) => t.toLowerCase()))],
      minQuality: params.min_quality,
      conformant: params.conformant,
      publisher: params.publisher,
      name: params.name,
    };
    if (terms.length > 0) return searchIndex<SkillSummary>(ctx, 'skill', params.q!, skillFilter(filters), params);
    return ctx.store.listSkills({ ...filters, agentId: params.publisher, limit: params.limit, offset: params.offset });
  },
);

/** A skill the caller may see, at `version` or its default version; 404 otherwise (private ones do not exist for others). */
/** A skill the caller may see, at `version` or its default version; 404 otherwise (private ones do not exist for others). */
async function visibleSkill(ctx: Context, caller: Caller, id: string, version?: string): Promise<Skill> {
  const skill = await ctx.store.getSkill(id, version);
  if (!skill || !canSeeSkill(caller, skill))
    throw notFound(version === undefined ? 'skill' : `version ${version} of this skill`);
  return skill;
}

export const getSkill = operation('public', (ctx, caller, id: string, version?: string) =>
  visibleSkill(ctx, caller, id, version),
);

/** A page of a skill's versions, newest first by semver precedence (yanked ones flagged). */
export const listSkillVersions = operation(
  'public',
  async (ctx, caller, id: string, page: { limit: number; offset: number }): Promise<Page<SkillVersionSummary>> => {
    await visibleSkill(ctx, caller, id);
    return (await ctx.store.listSkillVersions(id, page)) ?? { items: [], total: 0 };
  },
);

/** A file of the skill at `version` (null: its default version), with the skill it belongs to. */
export const getSkillFile = operation(
  'public',
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
  'public',
  async (ctx, caller, id: string, version: string): Promise<{ skill: Skill; archive: Buffer }> => {
    const skill = await visibleSkill(ctx, caller, id, version);
    const bundle = await ctx.store.getSkillBundle(skill.id, version);
    if (!bundle) throw notFound(`version ${version} of this skill`);
    return { skill, archive: Buffer.from(bundleArchive(bundle.skillMd, bundle.files)) };
  },
);

/** Public skills at their latest version, for the discovery index (streamed by the door). */
export const discoveryIndex = operation('public', async (ctx) => ctx.store.discoveryIndex());

// ---- yank and delete -------------------------------------------------------------------------------

/** A skill the caller may withdraw or erase (domain/access.ts); others' private skills do not exist. */
async function ownedSkill(ctx: Context, caller: Agent, id: string): Promise<Skill> {
  const skill = await visibleSkill(ctx, caller, id);
  assertMayManageSkill(caller, skill);
  return skill;
}

/** Yanks (or restores) a version: still readable by its number, never chosen as the default. */
export const setYanked = operation(
  'agent',
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
  'agent',
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
  'agent',
  async (ctx, caller, id: string): Promise<{ data: { id: string; deleted: boolean } }> => {
    await ownedSkill(ctx, caller, id);
    if (!(await ctx.store.deleteSkill(id, ctx.clock().toISOString()))) throw notFound('skill');
    return { data: { id, deleted: true } };
  },
);
