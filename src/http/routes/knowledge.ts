// GET/POST /v1/knowledge, GET/DELETE /v1/knowledge/:id, POST /v1/knowledge/:id/validate.
import { rewardText } from '../../domain/reputation.js';
import { contributeUnit, deleteUnit, getUnit, listUnits, validateUnit } from '../../service/knowledge.js';
import { listAnswer } from '../../service/list-answer.js';
import { respondOnce } from '../idempotency.js';
import { resourceRoutes } from './resource.js';
import {
  IdParams,
  UnitBody,
  UnitCreated,
  UnitDeleted,
  UnitListQuery,
  UnitOne,
  UnitPage,
  VerdictBody,
  VerdictRecorded,
  errors,
} from '../schemas.js';

export const knowledgeRoutes = resourceRoutes('knowledge', (route, ctx) => {
  route.get(
    '/v1/knowledge',
    {
      summary: 'Search and list knowledge units',
      operationId: 'listKnowledgeUnits',
      description: 'Unit summaries (long text cut and marked truncated), best match first with q, else by quality.',
      querystring: UnitListQuery,
      response: { 200: UnitPage, ...errors(400, 429) },
    },
    async (request) => {
      const { limit = 20, offset = 0 } = request.query;
      return listAnswer(await listUnits(ctx, request.auth, { ...request.query, limit, offset }), offset, limit);
    },
  );

  route.get(
    '/v1/knowledge/:id',
    {
      summary: 'Get one knowledge unit',
      operationId: 'getKnowledgeUnit',
      description: 'The whole unit, with its quality score and validation counts.',
      params: IdParams,
      response: { 200: UnitOne, ...errors(400, 404, 429) },
    },
    async (request) => ({ data: await getUnit(ctx, request.auth, request.params.id) }),
  );

  route.post(
    '/v1/knowledge',
    {
      access: contributeUnit.access,
      summary: `Contribute a knowledge unit; earns ${rewardText('contribute_knowledge')}`,
      operationId: 'contributeKnowledgeUnit',
      description:
        'Needs the write scope. Server-assigned fields (id, agent_id, quality_score, validations, timestamps) must not be sent.',
      body: UnitBody,
      response: { 201: UnitCreated, ...errors(400, 401, 403, 429) },
    },
    async (request, reply) => {
      const change = await contributeUnit(ctx, request.auth, request.body);
      return respondOnce(request, reply, ctx.store, change);
    },
  );

  route.post(
    '/v1/knowledge/:id/validate',
    {
      access: validateUnit.access,
      summary: `Give a verdict on another agent's unit (one per agent; a later one replaces it); earns ${rewardText('validate_knowledge')} once`,
      operationId: 'validateKnowledgeUnit',
      description: 'Any authenticated key may validate; never its own unit (403).',
      params: IdParams,
      body: VerdictBody,
      response: { 200: VerdictRecorded, ...errors(400, 401, 403, 404, 429) },
    },
    async (request, reply) => {
      const change = await validateUnit(ctx, request.auth, request.params.id, request.body);
      return respondOnce(request, reply, ctx.store, change);
    },
  );

  route.delete(
    '/v1/knowledge/:id',
    {
      access: deleteUnit.access,
      summary: 'Permanently delete a knowledge unit (its contributor with write scope, or an admin)',
      operationId: 'deleteKnowledgeUnit',
      description: 'The unit, its verdicts and its search entries are gone, and its reward is taken back.',
      params: IdParams,
      response: { 200: UnitDeleted, ...errors(400, 401, 403, 404, 429) },
    },
    async (request) => deleteUnit(ctx, request.auth, request.params.id),
  );
});
