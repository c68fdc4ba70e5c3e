// GET /v1/skills, GET /v1/skills/:id, POST /v1/skills.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireScope } from '../../domain/access.js';
import type { Context } from '../../service/context.js';
import { getSkill, listSkills, prepareSkillContribution } from '../../service/skills.js';
import { respondOnce } from '../idempotency.js';
import { IdParams, SkillBody, SkillCreated, SkillListQuery, SkillOne, SkillPage, errors } from '../schemas.js';

export const skillRoutes: FastifyPluginAsyncTypebox<Context> = async (app, ctx) => {
  app.get(
    '/v1/skills',
    {
      schema: {
        summary: 'Search and list skills',
        operationId: 'listSkills',
        description: 'Skill summaries (no SKILL.md), best match first with q, else by quality; private skills only for their publisher and admins.',
        tags: ['skills'],
        querystring: SkillListQuery,
        response: { 200: SkillPage, ...errors(400, 429) },
      },
    },
    async (request) => {
      const { limit = 20, offset = 0 } = request.query;
      const page = await listSkills(ctx, request.auth, { ...request.query, limit, offset });
      return { data: page.items, total: page.total, offset, limit };
    },
  );

  app.get(
    '/v1/skills/:id',
    {
      schema: {
        summary: 'Get one skill',
        operationId: 'getSkill',
        description: 'The whole skill, with its SKILL.md. A private skill is found only by its publisher and admins.',
        tags: ['skills'],
        params: IdParams,
        response: { 200: SkillOne, ...errors(400, 404, 429) },
      },
    },
    async (request) => ({ data: await getSkill(ctx, request.auth, request.params.id) }),
  );

  app.post(
    '/v1/skills',
    {
      config: { access: 'write' },
      schema: {
        summary: 'Contribute a skill (a SKILL.md document); earns 0.1 reputation',
        operationId: 'contributeSkill',
        description: 'Needs the write scope. The SKILL.md is parsed leniently: breaking a required rule is a 400 naming it; softer findings come back as warnings.',
        tags: ['skills'],
        security: [{ bearerAuth: [] }],
        body: SkillBody,
        response: { 201: SkillCreated, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const change = prepareSkillContribution(ctx, requireScope(request.auth, 'write'), request.body);
      return respondOnce(request, reply, ctx.store, change);
    },
  );
};
