// The RegistryBackend of the stdio MCP server: each operation is a call to the registry's REST API, so
// `mcp` serves the same tools and skill:// resources as POST /mcp, against any deployed registry.
import type { OsvRecord } from '../domain/advisories.js';
import { MAX_FILE_BYTES } from '../domain/bundles.js';
import { MAX_SKILL_MD_CHARS } from '../domain/skill-md.js';
import { hostSkillOf } from '../domain/host-skills.js';
import type { KnowledgeUnit, ReputationProfile, Skill } from '../domain/model.js';
import type { SkillSummary, UnitSummary } from '../domain/summaries.js';
import { bundleFiles, type ListPage, type RegistryBackend } from '../mcp/backend.js';
import { isTextType, skillUri } from '../mcp/skill-uris.js';
import { ApiError } from '../domain/errors.js';
import { AnswerTooLargeError } from './answers.js';
import { UnreachableError, type Query, type RegistryClient } from './client.js';

/** Each skills/list entry costs one GET: small pages keep an anonymous caller within its rate limit. */
const SKILL_PAGE = 10;

const path = (...segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}`;

/**
 * A registry that cannot be reached (or answers what no registry would) is a refusal like any other: the
 * tools report it to the model as a tool error with the reason, never as a protocol failure.
 */
function asRefusal(error: unknown): unknown {
  if (error instanceof UnreachableError)
    return new ApiError(503, 'UNAVAILABLE', `the registry cannot be reached: ${error.message}`);
  if (error instanceof AnswerTooLargeError)
    return new ApiError(502, 'INTERNAL_ERROR', `the registry's answer was refused: ${error.message}`);
  return error;
}

/** Every operation of a backend, with its failures as refusals (asRefusal). */
function refusing(backend: RegistryBackend): RegistryBackend {
  const wrapped: Record<string, unknown> = { ...backend };
  for (const [name, value] of Object.entries(backend)) {
    if (typeof value !== 'function') continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (value as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        throw asRefusal(error);
      }
    };
  }
  return wrapped as unknown as RegistryBackend;
}

export function restBackend(client: RegistryClient): RegistryBackend {
  return refusing(backendOver(client));
}

function backendOver(client: RegistryClient): RegistryBackend {
  // skill:// URIs this process listed, so reading one back costs one GET by id.
  const listed = new Map<string, string>();
  const remember = (skills: SkillSummary[]) => {
    for (const skill of skills) listed.set(skillUri(skill), skill.id);
  };

  const getSkill = async (id: string) => (await client.get<{ data: Skill }>(path('v1', 'skills', id))).data;
  /** A listed skill read whole; null when it was deleted since the list was read. */
  const readListed = (id: string) =>
    getSkill(id).catch((error: unknown) => {
      if (error instanceof ApiError && error.statusCode === 404) return null;
      throw error;
    });

  return {
    authenticated: client.key !== undefined,
    searchSkills: async (query) => {
      const page = await client.get<ListPage<SkillSummary>>('/v1/skills', query as Query);
      remember(page.data);
      return page;
    },
    getSkill,
    searchUnits: (query) => client.get<ListPage<UnitSummary>>('/v1/knowledge', query as Query),
    getUnit: async (id) => (await client.get<{ data: KnowledgeUnit }>(path('v1', 'knowledge', id))).data,
    contributeUnit: async (body) =>
      (await client.post<{ data: KnowledgeUnit; quality_score: number }>('/v1/knowledge', body)).body,
    contributeSkill: async (body) => (await client.post<{ data: Skill; warnings: string[] }>('/v1/skills', body)).body,
    validateUnit: async (id, verdict) =>
      (
        await client.post<{ data: { id: string; validated: boolean; feedback: string } }>(
          `${path('v1', 'knowledge', id)}/validate`,
          verdict,
        )
      ).body.data,
    skillAdvisories: async (skillId) =>
      (await client.get<ListPage<OsvRecord>>('/v1/advisories', { skill_id: skillId, limit: 100 })).data,
    reputation: async (agentId, historyLimit) => {
      const { data } = await client.get<{ data: ReputationProfile }>(path('v1', 'reputation', agentId));
      return { ...data, history: data.history.slice(0, historyLimit) };
    },
    hostSkillPage: async (offset) => {
      const page = await client.get<ListPage<SkillSummary>>('/v1/skills', { limit: SKILL_PAGE, offset });
      remember(page.data);
      const skills = [];
      for (const summary of page.data) {
        const skill = await readListed(summary.id);
        if (skill) skills.push(hostSkillOf(skill));
      }
      return { skills, read: page.data.length, total: page.total };
    },
    findHostSkill: async (publisher, name) => {
      const id = listed.get(skillUri({ agent_id: publisher, name }));
      let skill = id ? await readListed(id) : null;
      if (!skill || skill.agent_id !== publisher || skill.name !== name) {
        // A skill is its publisher and name: one list entry at most, its latest version.
        const found = await client.get<ListPage<SkillSummary>>('/v1/skills', { publisher, name, limit: 1 });
        skill = found.data[0] ? await readListed(found.data[0].id) : null;
      }
      const host = skill && hostSkillOf(skill);
      return host?.listed ? host : null;
    },
    skillFiles: async (skill) => bundleFiles(skill),
    readSkillFile: async (skill, file) => {
      const files = `${path('v1', 'skills', skill.id, 'versions', skill.version)}/files`;
      // A file is at most the registry's per-file cap (with a margin; SKILL.md its own): a registry cannot make this process hold more.
      const bytes = await client.bytes(
        `${files}/${file.path.split('/').map(encodeURIComponent).join('/')}`,
        Math.max(file.size, MAX_FILE_BYTES, MAX_SKILL_MD_CHARS * 4) + 1024,
        `the file ${file.path}`,
      );
      return isTextType(file.mimeType) ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') };
    },
  };
}
