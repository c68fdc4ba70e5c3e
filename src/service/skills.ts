// Skills as packages: publish a SKILL.md (and its bundle of files) as a new skill or a new version,
// read a skill at its default or a named version, its versions, files and archive, yank and delete, list
// and search (private skills only for their owner and admins), and the discovery index; each an
// operation with its access.
import { assertMayManageSkill, canSeeSkill, skillViewer } from '../domain/access.js';
import type { Agent, Caller } from '../domain/caller.js';
import { bundleArchive, checkBundle, sha256Digest, versionDigest, type BundleFileInput } from '../domain/bundles.js';
import { badRequest, conflict, forbidden, notFound } from '../domain/errors.js';
import type { Skill, SkillVersionSummary, SkillWarning, Visibility } from '../domain/model.js';
import { skillQuality } from '../domain/quality.js';
import { REWARD_MILLIS } from '../domain/reputation.js';
import { commaList, textFilter } from '../domain/search.js';
import { hostFrontmatter, parseSkillMd } from '../domain/skill-md.js';
import type { SkillSummary } from '../domain/summaries.js';
import {
  decideVersion,
  FIRST_VERSION,
  isRelease,
  latestAfter,
  readVersion,
  versionSortKey,
} from '../domain/versions.js';
import { plannedSkill } from '../store/skill-rows.js';
import {
  PublishRaceError,
  VersionLimitError,
  type NewSkillVersion,
  type Page,
  type SkillFileContent,
  type SkillPlan,
} from '../store/store.js';
import { quotaOf, withinQuota, type Change, type Context } from './context.js';
import { admit, operation } from './operation.js';
import { searchIndex, skillFilter } from './search.js';

const MAX_TAG_FILTERS = 20;
/** A publication planned from reads that a concurrent one made stale is planned again, this many times. */
const PUBLISH_ATTEMPTS = 5;

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

// ---- publication -----------------------------------------------------------------------------------

export interface SkillInput {
  skill_md_content: string;
  visibility: Visibility;
  files?: BundleFileInput[];
}

export type Published = { data: Skill; warnings: string[] };

/**
 * Publishes a SKILL.md and its files under the caller's name for it: a new skill (+0.1), a new version of
 * the caller's skill of that name (no reward), or, for content it already has, that version again (200,
 * nothing written). `apply` writes the change (REST: with its idempotency record).
 */
export const publishSkill = Object.assign(
  <R>(ctx: Context, caller: Caller, input: SkillInput, apply: (change: Change<Published>) => Promise<R>): Promise<R> =>
    publish(ctx, admit('write', caller), input, apply),
  { access: 'write' as const },
);

async function publish<R>(
  ctx: Context,
  agent: Agent,
  input: SkillInput,
  apply: (change: Change<Published>) => Promise<R>,
): Promise<R> {
  const draft = draftSkill(input);
  for (let attempt = 0; attempt < PUBLISH_ATTEMPTS; attempt++) {
    const identity = await ctx.store.findSkillByName(agent.agentId, draft.name);
    if (identity && identity.visibility !== input.visibility) {
      // Visibility belongs to the skill: a version never changes it, so earlier private versions are never exposed by one.
      throw conflict(
        `visibility: ${draft.name} is ${identity.visibility}, and a new version keeps the skill's visibility; publish it as ` +
          `${identity.visibility}, or change the skill's visibility first (POST /v1/skills/${identity.skillId}/visibility)`,
      );
    }
    const facts = identity ? await ctx.store.skillVersionFacts(identity.skillId, draft.digest, draft.requested) : null;
    const decision = facts ? decideVersion(facts, draft.requested) : null;
    if (decision?.kind === 'taken') {
      throw conflict(
        `version ${decision.version} of ${draft.name} is already published with other content; versions are immutable, so give the SKILL.md a new metadata.version`,
      );
    }
    if (decision?.kind === 'exhausted') {
      throw conflict(
        `${draft.name} is at version ${decision.version}, which has no next patch version; give the SKILL.md a metadata.version`,
      );
    }
    const at = ctx.clock();
    const plan = planOf(draft, {
      kind: identity === null ? 'create' : decision!.kind === 'same' ? 'same' : 'version',
      skillId: identity?.skillId ?? ctx.ids.skillId(),
      agentId: agent.agentId,
      visibility: input.visibility,
      version: decision?.version ?? draft.requested ?? FIRST_VERSION,
      at: at.toISOString(),
      maxVersions: ctx.config.maxSkillVersions,
    });
    const change = await publicationChange(ctx, agent, plan, draft.warnings, draft.notes, at);
    try {
      return await apply(change);
    } catch (error) {
      if (error instanceof PublishRaceError) continue;
      throw error;
    }
  }
  throw conflict('other publications of this skill kept getting in first; retry');
}

interface Draft {
  name: string;
  digest: string;
  requested: string | null;
  warnings: SkillWarning[];
  notes: string[];
  version: Omit<NewSkillVersion, 'version' | 'sortKey' | 'release' | 'publishedAt'>;
}

/** A SKILL.md and its files read, checked and digested (400 naming the rule for what cannot be loaded). */
function draftSkill(input: SkillInput): Draft {
  const parsed = parseSkillMd(input.skill_md_content);
  if (!parsed.ok) throw badRequest(`skill_md_content: ${parsed.message}`);
  const bundle = checkBundle(input.files ?? []);
  if (!bundle.ok) throw badRequest(bundle.message);
  const { skill: doc, conformant } = parsed;
  const requested = readVersion(doc.version);
  if (requested.problem) throw badRequest(`skill_md_content: metadata.${requested.problem}`);
  const warnings = [...parsed.warnings, ...bundle.warnings];
  const digest = versionDigest(input.skill_md_content, bundle.files);
  return {
    name: doc.name,
    digest,
    requested: requested.version,
    warnings,
    notes: requested.note ? [requested.note] : [],
    version: {
      digest,
      displayName: doc.displayName,
      description: doc.description,
      domain: doc.domain,
      tags: doc.tags,
      license: doc.license,
      qualityScore: skillQuality({ ...doc, warnings }),
      conformant,
      warnings,
      skillMd: input.skill_md_content,
      skillMdDigest: sha256Digest(input.skill_md_content),
      skillMdBytes: Buffer.byteLength(input.skill_md_content, 'utf8'),
      frontmatter: hostFrontmatter(input.skill_md_content, doc.name, conformant),
      body: doc.body,
      files: bundle.files,
    },
  };
}

function planOf(
  draft: Draft,
  how: {
    kind: SkillPlan['kind'];
    skillId: string;
    agentId: string;
    visibility: Visibility;
    version: string;
    at: string;
    maxVersions: number | null;
  },
): SkillPlan {
  return {
    kind: how.kind,
    skillId: how.skillId,
    agentId: how.agentId,
    name: draft.name,
    visibility: how.visibility,
    rewardMillis: REWARD_MILLIS.contribute_skill,
    maxVersions: how.maxVersions,
    version: {
      ...draft.version,
      version: how.version,
      sortKey: versionSortKey(how.version),
      release: isRelease(how.version),
      publishedAt: how.at,
    },
  };
}

/**
 * A new skill's plan, for the bulk path (benchmark corpora, operator imports): the SKILL.md read as a
 * publication reads it, at its requested version or the first one.
 */
export function newSkillPlan(input: SkillInput & { skillId: string; agentId: string; at: string }): SkillPlan {
  const draft = draftSkill(input);
  return planOf(draft, { ...input, kind: 'create', version: draft.requested ?? FIRST_VERSION, maxVersions: null });
}

async function publicationChange(
  ctx: Context,
  agent: Agent,
  plan: SkillPlan,
  warnings: SkillWarning[],
  notes: string[],
  at: Date,
): Promise<Change<Published>> {
  const messages = [...warnings.map((w) => w.message), ...notes];
  if (plan.kind === 'same') {
    // Identical content: the version that has it, as it is stored (its warnings, its publication time).
    const existing = await ctx.store.getSkill(plan.skillId, plan.version.version);
    if (!existing) throw new PublishRaceError();
    return {
      status: 200,
      body: { data: existing, warnings: messages },
      at,
      write: (response) => ctx.store.publishSkill(plan, response),
    };
  }
  const current = plan.kind === 'version' ? await ctx.store.getSkill(plan.skillId) : null;
  const now = at.toISOString();
  const latest = latestAfter(current?.latest_version ?? null, plan.version.version);
  const data = plannedSkill(plan, { createdAt: current?.created_at ?? now, updatedAt: now, latestVersion: latest });
  return {
    status: 201,
    body: { data, warnings: messages },
    at,
    write: async (response) => {
      try {
        await withinQuota(agent, () => ctx.store.publishSkill(plan, response, quotaOf(ctx, agent)));
      } catch (error) {
        if (!(error instanceof VersionLimitError)) throw error;
        throw forbidden(
          `a skill holds at most ${error.limit} versions (REG_SKILL_MAX_VERSIONS); yank or delete is no way back: publish it as a new skill`,
        );
      }
    },
  };
}

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
