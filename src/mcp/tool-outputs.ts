// What the MCP tools answer, sized for a model's context: searches give short summaries (then get by id),
// gets give the whole item. Each shape is a TypeBox schema (the tool's outputSchema) and a function that
// makes it from the registry's own objects, so both transports answer identically.
import { Type, type Static } from 'typebox';
import { ADVISORY_SEVERITIES, type AdvisoryBrief } from '../domain/advisories.js';
import { KnowledgeUnit, ReputationProfile, SecurityBrief, Skill } from '../domain/model.js';
import { cutText, type SkillSummary, type UnitSummary } from '../domain/summaries.js';
import type { ListPage, SkillFile } from './backend.js';
import { skillUri } from './skill-uris.js';

/** A unit's description in a search hit: at most this many characters (get_knowledge_unit has it all). */
export const HIT_SUMMARY_CHARS = 280;
/** History items a reputation answer shows (the REST profile has 100, the export all). */
export const REPUTATION_HISTORY_ITEMS = 20;

const NextOffset = Type.Union([Type.Integer(), Type.Null()], {
  description: 'offset of the next page, null on the last one',
});
const Uri = Type.String({ description: 'the skill:// URI of its SKILL.md (MCP Skills extension)' });

const SkillHit = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  agent_id: Type.String({ description: 'the publisher' }),
  domain: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  quality_score: Type.Number(),
  visibility: Skill.properties.visibility,
  security: Type.Optional(SecurityBrief),
  uri: Uri,
});

export const SkillSearchResult = Type.Object({
  total: Type.Integer(),
  offset: Type.Integer(),
  limit: Type.Integer(),
  next_offset: NextOffset,
  skills: Type.Array(SkillHit),
});

const FileEntry = Type.Object({ path: Type.String(), uri: Type.String(), digest: Type.String(), size: Type.Integer() });

const Advisory = Type.Object({
  id: Type.String(),
  summary: Type.String(),
  severity: Type.Enum([...ADVISORY_SEVERITIES]),
  versions: Type.String({ description: 'the affected versions, a semver range' }),
  affects_this_version: Type.Boolean(),
});

export const SkillDetail = Type.Object({
  ...Skill.properties,
  uri: Uri,
  files: Type.Array(FileEntry, { description: 'every file of the skill, SKILL.md first, readable as MCP resources' }),
  advisories: Type.Array(Advisory, {
    description: "advisories about the skill's versions, those affecting this version and the most severe first",
  }),
});

const UnitHit = Type.Object({
  id: Type.String(),
  title: Type.String(),
  type: KnowledgeUnit.properties.type,
  domain: Type.String(),
  tags: Type.Array(Type.String()),
  agent_id: Type.String({ description: 'the contributor' }),
  quality_score: Type.Number(),
  validations: KnowledgeUnit.properties.validations,
  summary: Type.String({ description: `the description's first ${HIT_SUMMARY_CHARS} characters` }),
  truncated: Type.Boolean({
    description: 'true when the summary is not the whole unit: get_knowledge_unit has it all',
  }),
});

export const UnitSearchResult = Type.Object({
  total: Type.Integer(),
  offset: Type.Integer(),
  limit: Type.Integer(),
  next_offset: NextOffset,
  units: Type.Array(UnitHit),
});

export const UnitDetail = KnowledgeUnit;

export const SkillContributed = Type.Object({
  skill: Type.Object({ ...SkillHit.properties, created_at: Skill.properties.created_at }),
  warnings: Type.Array(Type.String(), { description: 'findings about the SKILL.md that did not block it' }),
});

export const VerdictResult = Type.Object({ id: Type.String(), validated: Type.Boolean(), feedback: Type.String() });

export const ReputationResult = Type.Object({
  ...ReputationProfile.properties,
  history: Type.Array(ReputationProfile.properties.history.items, {
    description: `the newest ${REPUTATION_HISTORY_ITEMS} items, newest first`,
  }),
});

const nextOffset = (page: ListPage<unknown>) =>
  page.offset + page.data.length < page.total ? page.offset + page.data.length : null;

/** The verdict a list shows: the verdict and how many findings back it. */
function securityBrief(security: SkillSummary['security'] | Skill['security']) {
  if (!security) return {};
  return {
    security: {
      verdict: security.verdict,
      findings_count: 'findings' in security ? security.findings.length : security.findings_count,
    },
  };
}

function skillHit(skill: SkillSummary | Skill): Static<typeof SkillHit> {
  const { id, name, description, agent_id, domain, tags, quality_score, visibility } = skill;
  return {
    id,
    name,
    description,
    agent_id,
    domain,
    tags,
    quality_score,
    visibility,
    ...securityBrief(skill.security),
    uri: skillUri(skill),
  };
}

export function skillSearchResult(page: ListPage<SkillSummary>): Static<typeof SkillSearchResult> {
  return {
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    next_offset: nextOffset(page),
    skills: page.data.map(skillHit),
  };
}

export function skillDetail(skill: Skill, files: SkillFile[], advisories: AdvisoryBrief[]): Static<typeof SkillDetail> {
  return {
    ...skill,
    advisories,
    uri: skillUri(skill),
    files: files.map((file) => ({
      path: file.path,
      uri: skillUri(skill, file.path),
      digest: file.digest,
      size: file.size,
    })),
  };
}

function unitHit(unit: UnitSummary): Static<typeof UnitHit> {
  const { id, title, type, domain, tags, agent_id, quality_score, validations } = unit;
  const summary = cutText(unit.content.description, HIT_SUMMARY_CHARS);
  const truncated =
    unit.truncated || summary.length < unit.content.description.length || unit.content.examples.length > 0;
  return { id, title, type, domain, tags, agent_id, quality_score, validations, summary, truncated };
}

export function unitSearchResult(page: ListPage<UnitSummary>): Static<typeof UnitSearchResult> {
  return {
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    next_offset: nextOffset(page),
    units: page.data.map(unitHit),
  };
}

export function skillContributed(answer: { data: Skill; warnings: string[] }): Static<typeof SkillContributed> {
  return { skill: { ...skillHit(answer.data), created_at: answer.data.created_at }, warnings: answer.warnings };
}

export function reputationResult(profile: Static<typeof ReputationProfile>): Static<typeof ReputationResult> {
  return { ...profile, history: profile.history.slice(0, REPUTATION_HISTORY_ITEMS) };
}
