// The RegistryBackend of the stdio MCP server: each operation is a call to the registry's REST API, so
// `mcp` serves the same tools and skill:// resources as POST /mcp, against any deployed registry.
import { MAX_FILE_BYTES } from '../domain/bundles.js';
import type { KnowledgeUnit, ReputationProfile, Skill } from '../domain/model.js';
import type { SkillSummary, UnitSummary } from '../domain/summaries.js';
import { type ListPage, type RegistryBackend, type SkillFile, skillMdFile } from '../mcp/backend.js';
import { isTextType, mimeTypeOf, SKILL_MD, sepDigest, skillUri } from '../mcp/skill-uris.js';
import type { Query, RegistryClient } from './client.js';

/** Each skills/list entry costs one GET: small pages keep an anonymous caller within its rate limit. */
const SKILL_PAGE = 10;
/** Pages of a name search read to find a skill by publisher and name, as the /mcp route does (service/skill-lookup.ts). */

/** A skill as the API answers it, with the bundle listing when the registry has one. */
type ServedSkill = Skill & { files?: { path: string; size?: number; digest: string }[] };

const path = (...segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}`;

export function restBackend(client: RegistryClient): RegistryBackend {
  // skill:// URIs this process listed, so reading one back costs one GET by id.
  const listed = new Map<string, string>();
  const remember = (skills: SkillSummary[]) => {
    for (const skill of skills) listed.set(skillUri(skill), skill.id);
  };

  const getSkill = async (id: string) => (await client.get<{ data: Skill }>(path('v1', 'skills', id))).data;

  return {
    authenticated: client.key !== undefined,
    skillPageSize: SKILL_PAGE,
    searchSkills: async (query) => {
      const page = await client.get<ListPage<SkillSummary>>('/v1/skills', query as Query);
      remember(page.data);
      return page;
    },
    getSkill,
    searchUnits: (query) => client.get<ListPage<UnitSummary>>('/v1/knowledge', query as Query),
    getUnit: async (id) => (await client.get<{ data: KnowledgeUnit }>(path('v1', 'knowledge', id))).data,
    contributeUnit: async (body) => (await client.post<{ data: KnowledgeUnit; quality_score: number }>('/v1/knowledge', body)).body,
    contributeSkill: async (body) => (await client.post<{ data: Skill; warnings: string[] }>('/v1/skills', body)).body,
    validateUnit: async (id, verdict) =>
      (await client.post<{ data: { id: string; validated: boolean; feedback: string } }>(`${path('v1', 'knowledge', id)}/validate`, verdict)).body.data,
    reputation: async (agentId, historyLimit) => {
      const { data } = await client.get<{ data: ReputationProfile }>(path('v1', 'reputation', agentId));
      return { ...data, history: data.history.slice(0, historyLimit) };
    },
    findSkill: async (publisher, name) => {
      const id = listed.get(skillUri({ agent_id: publisher, name }));
      if (id) {
        const skill = await getSkill(id).catch(() => null);
        if (skill && skill.agent_id === publisher && skill.name === name) return skill;
      }
      // A skill is its publisher and name: one list entry at most, its latest version.
      const found = await client.get<ListPage<SkillSummary>>('/v1/skills', { publisher, name, limit: 1 });
      return found.data[0] ? getSkill(found.data[0].id) : null;
    },
    skillFiles: async (skill: ServedSkill): Promise<SkillFile[]> => {
      const bundle = (skill.files ?? []).filter((file) => file.path !== SKILL_MD);
      return [
        skillMdFile(skill),
        ...bundle.map((file) => ({ path: file.path, digest: sepDigest(file.digest), size: file.size ?? 0, mimeType: mimeTypeOf(file.path) })),
      ];
    },
    readSkillFile: async (skill, file) => {
      if (file.path === SKILL_MD) return { text: skill.skill_md_content };
      // A file is at most the registry's per-file cap (with a margin): a registry cannot make this process hold more.
      const bytes = await client.bytes(
        `${path('v1', 'skills', skill.id)}/files/${file.path.split('/').map(encodeURIComponent).join('/')}`,
        Math.max(file.size, MAX_FILE_BYTES) + 1024,
        `the file ${file.path}`,
      );
      return isTextType(file.mimeType) ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') };
    },
  };
}
