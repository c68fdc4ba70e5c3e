// Skills: contribute a SKILL.md, read one, list and search (private skills only for their owner and admins).
import { canSeeSkill, skillViewer } from '../domain/access.js';
import type { Agent, Caller } from '../domain/caller.js';
import { badRequest, notFound } from '../domain/errors.js';
import type { Skill, Visibility } from '../domain/model.js';
import type { SkillSummary } from '../domain/summaries.js';
import { skillQuality } from '../domain/quality.js';
import { REWARD_MILLIS } from '../domain/reputation.js';
import { commaList, textFilter } from '../domain/search.js';
import { parseSkillMd } from '../domain/skill-md.js';
import type { Page } from '../store/store.js';
import { quotaOf, withinQuota, type Change, type Context } from './context.js';

const MAX_TAG_FILTERS = 20;

export interface SkillListParams {
  q?: string;
  domain?: string;
  tags?: string;
  min_quality?: number;
  limit: number;
  offset: number;
}

export async function listSkills(ctx: Context, caller: Caller, params: SkillListParams): Promise<Page<SkillSummary>> {
  const tagList = commaList(params.tags);
  if (tagList.length > MAX_TAG_FILTERS) throw badRequest(`query parameter tags may name at most ${MAX_TAG_FILTERS} tags`);
  if (tagList.some((t) => t.length > 50)) throw badRequest('query parameter tags: each tag is at most 50 characters');
  const terms = textFilter(params.q);
  if (terms === null) return { items: [], total: 0 };
  return ctx.store.listSkills({
    terms,
    domain: params.domain,
    tags: tagList,
    minQuality: params.min_quality,
    limit: params.limit,
    offset: params.offset,
    viewer: skillViewer(caller),
  });
}

export async function getSkill(ctx: Context, caller: Caller, id: string): Promise<Skill> {
  const skill = await ctx.store.getSkill(id);
  if (!skill || !canSeeSkill(caller, skill)) throw notFound('skill');
  return skill;
}

export interface SkillInput {
  skill_md_content: string;
  visibility: Visibility;
}

export function prepareSkillContribution(ctx: Context, agent: Agent, input: SkillInput): Change<{ data: Skill; warnings: string[] }> {
  const parsed = parseSkillMd(input.skill_md_content);
  if (!parsed.ok) throw badRequest(`skill_md_content: ${parsed.message}`);
  const { skill: doc, warnings } = parsed;
  const at = ctx.clock();
  const now = at.toISOString();
  const skill: Skill = {
    id: ctx.ids.skillId(),
    name: doc.name,
    description: doc.description,
    domain: doc.domain,
    tags: doc.tags,
    license: doc.license,
    visibility: input.visibility,
    agent_id: agent.agentId,
    quality_score: skillQuality({ ...doc, warnings }),
    skill_md_content: input.skill_md_content,
    created_at: now,
    updated_at: now,
  };
  return {
    status: 201,
    body: { data: skill, warnings: warnings.map((w) => w.message) },
    at,
    write: (response) =>
      withinQuota(agent, () => ctx.store.contributeSkill(skill, doc.body, REWARD_MILLIS.contribute_skill, response, quotaOf(ctx, agent))),
  };
}
