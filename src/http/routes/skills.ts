// GET /v1/skills, GET /v1/skills/:id, POST /v1/skills.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Skill } from '../../domain/model.js';
import { skillQuality } from '../../domain/quality.js';
import { REWARD_MILLIS } from '../../domain/reputation.js';
import { commaList, textFilter } from '../../domain/search.js';
import { parseSkillMd } from '../../domain/skill-md.js';
import type { AuthContext } from '../auth.js';
import type { Deps } from '../deps.js';
import { badRequest, notFound } from '../errors.js';
import { isAdmin, requireScope } from '../guards.js';
import { respondOnce } from '../idempotency.js';
import { IdParams, SkillBody, SkillCreated, SkillListQuery, SkillOne, SkillPage, errors } from '../schemas.js';

const MAX_TAG_FILTERS = 20;

/** A private skill exists only for its contributor and for admins. */
const canSee = (skill: Skill, auth: AuthContext) =>
  skill.visibility === 'public' || skill.agent_id === auth.agentId || isAdmin(auth);

export const skillRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, deps) => {
  app.get(
    '/v1/skills',
    {
      schema: {
        summary: 'Search and list skills',
        tags: ['skills'],
        querystring: SkillListQuery,
        response: { 200: SkillPage, ...errors(400, 429) },
      },
    },
    async (request) => {
      const { q, domain, tags, min_quality: minQuality, limit = 20, offset = 0 } = request.query;
      const tagList = commaList(tags);
      if (tagList.length > MAX_TAG_FILTERS) throw badRequest(`query parameter tags may name at most ${MAX_TAG_FILTERS} tags`);
      if (tagList.some((t) => t.length > 50)) throw badRequest('query parameter tags: each tag is at most 50 characters');
      const terms = textFilter(q);
      if (terms === null) return { data: [], total: 0, offset, limit };
      const page = await deps.store.listSkills({
        terms,
        domain,
        tags: tagList,
        minQuality,
        limit,
        offset,
        viewer: { agentId: request.auth.agentId, everything: isAdmin(request.auth) },
      });
      return { data: page.items, total: page.total, offset, limit };
    },
  );

  app.get(
    '/v1/skills/:id',
    {
      schema: {
        summary: 'Get one skill',
        tags: ['skills'],
        params: IdParams,
        response: { 200: SkillOne, ...errors(400, 404, 429) },
      },
    },
    async (request) => {
      const skill = await deps.store.getSkill(request.params.id);
      if (!skill || !canSee(skill, request.auth)) throw notFound('skill');
      return { data: skill };
    },
  );

  app.post(
    '/v1/skills',
    {
      config: { access: 'write' },
      schema: {
        summary: 'Contribute a skill (a SKILL.md document); earns 0.1 reputation',
        tags: ['skills'],
        security: [{ bearerAuth: [] }],
        body: SkillBody,
        response: { 201: SkillCreated, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const agent = requireScope(request, 'write');
      const parsed = parseSkillMd(request.body.skill_md_content);
      if (!parsed.ok) throw badRequest(`skill_md_content: ${parsed.message}`);
      const { skill: doc, warnings } = parsed;
      const at = deps.clock();
      const now = at.toISOString();
      const skill: Skill = {
        id: deps.ids.skillId(),
        name: doc.name,
        description: doc.description,
        domain: doc.domain,
        tags: doc.tags,
        license: doc.license,
        visibility: request.body.visibility,
        agent_id: agent.agentId,
        quality_score: skillQuality({ ...doc, warnings: warnings.length }),
        skill_md_content: request.body.skill_md_content,
        created_at: now,
        updated_at: now,
      };
      return respondOnce(request, reply, deps.store, at, 201, { data: skill, warnings }, (response) =>
        deps.store.contributeSkill(skill, doc.body, REWARD_MILLIS.contribute_skill, response),
      );
    },
  );
};
