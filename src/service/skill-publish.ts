// Publishing a SKILL.md and its files: a new skill, a new version of the caller's skill of that name, or
// the same content again; the draft (parsed, checked, digested), its plan for the store, and the change
// the caller's write applies (with its quota and version limit).
import type { Agent, Caller } from '../domain/caller.js';
import { checkBundle, sha256Digest, versionDigest, type BundleFileInput } from '../domain/bundles.js';
import { badRequest, conflict, forbidden } from '../domain/errors.js';
import type { Skill, SkillWarning, Visibility } from '../domain/model.js';
import { skillQuality } from '../domain/quality.js';
import { REWARD_MILLIS } from '../domain/reputation.js';
import { hostFrontmatter, parseSkillMd } from '../domain/skill-md.js';
import {
  decideVersion,
  FIRST_VERSION,
  isRelease,
  latestAfter,
  readVersion,
  versionSortKey,
} from '../domain/versions.js';
import { plannedSkill } from '../store/skill-rows.js';
import { PublishRaceError, VersionLimitError, type NewSkillVersion, type SkillPlan } from '../store/store.js';
import { quotaOf, withinQuota, type Change, type Context } from './context.js';
import { ACCESS, admit } from '../domain/operations.js';
import { scanSkill, type ScanResult } from '../scan/index.js';
import { refuseSecrets, scannerHold, securityOf } from './security.js';

/** A publication planned from reads that a concurrent one made stale is planned again, this many times. */
const PUBLISH_ATTEMPTS = 5;

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
    publish(ctx, admit(ACCESS.publishSkill, caller), input, apply),
  { access: ACCESS.publishSkill },
);

async function publish<R>(
  ctx: Context,
  agent: Agent,
  input: SkillInput,
  apply: (change: Change<Published>) => Promise<R>,
): Promise<R> {
  const draft = await scanned(readDraft(input));
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
    if (plan.kind !== 'same') holdIfMalicious(ctx, plan);
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
  version: Omit<NewSkillVersion, 'version' | 'sortKey' | 'release' | 'publishedAt' | 'security'>;
  files: { path: string; bytes: Uint8Array }[];
  /** The scan (absent: not scanned, the store tests' plans). */
  scan?: ScanResult;
}

/** A draft scanned: refused (400) when it carries credentials. */
async function scanned(draft: Draft): Promise<Draft> {
  const scan = await scanSkill({ files: draft.files });
  refuseSecrets(scan);
  return { ...draft, scan };
}

/** A SKILL.md and its files read, checked and digested (400 naming the rule for what cannot be loaded). */
function readDraft(input: SkillInput): Draft {
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
    files: [
      { path: 'SKILL.md', bytes: Buffer.from(input.skill_md_content, 'utf8') },
      ...bundle.files.map((f) => ({ path: f.path, bytes: f.content })),
    ],
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
      ...(draft.scan ? { security: securityOf(draft.scan, how.at) } : {}),
    },
  };
}

/**
 * A new skill's plan, for the bulk path (benchmark corpora): the SKILL.md read as a publication reads it,
 * at its requested version or the first one; not scanned (synthetic corpora), so its version has no verdict.
 */
export function newSkillPlan(input: SkillInput & { skillId: string; agentId: string; at: string }): SkillPlan {
  const draft = readDraft(input);
  return planOf(draft, { ...input, kind: 'create', version: draft.requested ?? FIRST_VERSION, maxVersions: null });
}

/** A malicious new version is planned with the scanner's hold. */
function holdIfMalicious(ctx: Pick<Context, 'ids'>, plan: SkillPlan): void {
  const security = plan.version.security;
  if (!security) return;
  const target = {
    kind: 'skill' as const,
    id: plan.skillId,
    version: plan.version.version,
    public: plan.visibility === 'public',
  };
  const hold = scannerHold(ctx, security, target, plan.version.publishedAt);
  if (hold) plan.hold = hold;
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
  // A held version is never the latest.
  const latest = plan.hold
    ? (current?.latest_version ?? null)
    : latestAfter(current?.latest_version ?? null, plan.version.version);
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
