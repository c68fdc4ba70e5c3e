// GET/POST /v1/knowledge, GET/DELETE /v1/knowledge/:id, POST /v1/knowledge/:id/validate.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normalizeUnitInput } from '../../domain/knowledge.js';
import { UNIT_TYPES, type KnowledgeUnit, type UnitType } from '../../domain/model.js';
import { unitBaseQuality, unitQuality } from '../../domain/quality.js';
import { REWARD_MILLIS } from '../../domain/reputation.js';
import { commaList, textFilter } from '../../domain/search.js';
import { isoNow, type Deps } from '../deps.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { isAdmin, requireAgent, requireScope } from '../guards.js';
import { respondOnce } from '../idempotency.js';
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

const isUnitType = (value: string): value is UnitType => (UNIT_TYPES as readonly string[]).includes(value);

export const knowledgeRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, deps) => {
  app.get(
    '/v1/knowledge',
    {
      schema: {
        summary: 'Search and list knowledge units',
        tags: ['knowledge'],
        querystring: UnitListQuery,
        response: { 200: UnitPage, ...errors(400, 429) },
      },
    },
    async (request) => {
      const { q, types, domain, min_quality: minQuality, limit = 20, offset = 0 } = request.query;
      const typeList = commaList(types);
      const unknown = typeList.filter((t) => !isUnitType(t));
      if (unknown.length > 0) {
        throw badRequest(`query parameter types has unknown values (${unknown.join(', ')}); use ${UNIT_TYPES.join(', ')}`);
      }
      const terms = textFilter(q);
      if (terms === null) return { data: [], total: 0, offset, limit };
      const page = await deps.store.listUnits({
        terms,
        types: typeList.filter(isUnitType),
        domain,
        minQuality,
        limit,
        offset,
      });
      return { data: page.items, total: page.total, offset, limit };
    },
  );

  app.get(
    '/v1/knowledge/:id',
    {
      schema: {
        summary: 'Get one knowledge unit',
        tags: ['knowledge'],
        params: IdParams,
        response: { 200: UnitOne, ...errors(400, 404, 429) },
      },
    },
    async (request) => {
      const unit = await deps.store.getUnit(request.params.id);
      if (!unit) throw notFound('knowledge unit');
      return { data: unit };
    },
  );

  app.post(
    '/v1/knowledge',
    {
      config: { access: 'write' },
      schema: {
        summary: 'Contribute a knowledge unit; earns 0.2 reputation',
        tags: ['knowledge'],
        security: [{ bearerAuth: [] }],
        body: UnitBody,
        response: { 201: UnitCreated, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const agent = requireScope(request, 'write');
      const checked = normalizeUnitInput(request.body);
      if (!checked.ok) throw badRequest(checked.message);
      const input = checked.unit;
      const at = deps.clock();
      const now = at.toISOString();
      const baseQuality = unitBaseQuality(input);
      const unit: KnowledgeUnit = {
        id: deps.ids.unitId(),
        agent_id: agent.agentId,
        title: input.title,
        type: input.type,
        domain: input.domain,
        content: { description: input.content.description, examples: input.content.examples },
        metadata: { source: input.metadata.source, confidence: input.metadata.confidence },
        tags: input.tags ?? [],
        quality_score: unitQuality(baseQuality, 0, 0),
        validations: { valid: 0, invalid: 0 },
        created_at: now,
        updated_at: now,
      };
      return respondOnce(request, reply, deps.store, at, 201, { data: unit, quality_score: unit.quality_score }, (response) =>
        deps.store.contributeUnit(unit, baseQuality, REWARD_MILLIS.contribute_knowledge, response),
      );
    },
  );

  app.post(
    '/v1/knowledge/:id/validate',
    {
      config: { access: 'agent' },
      schema: {
        summary: "Give a verdict on another agent's unit (one per agent; a later one replaces it); earns 0.05 once",
        tags: ['knowledge'],
        security: [{ bearerAuth: [] }],
        params: IdParams,
        body: VerdictBody,
        response: { 200: VerdictRecorded, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const agent = requireAgent(request);
      const { id } = request.params;
      const unit = await deps.store.getUnit(id);
      if (!unit) throw notFound('knowledge unit');
      if (unit.agent_id === agent.agentId) throw forbidden('an agent may not validate its own knowledge unit');
      const feedback = request.body.feedback ?? '';
      const at = deps.clock();
      const verdict = {
        unitId: id,
        agentId: agent.agentId,
        valid: request.body.valid,
        feedback,
        at: at.toISOString(),
        rewardMillis: REWARD_MILLIS.validate_knowledge,
        rescore: unitQuality,
      };
      const body = { data: { id, validated: request.body.valid, feedback } };
      return respondOnce(request, reply, deps.store, at, 200, body, async (response) => {
        const outcome = await deps.store.recordVerdict(verdict, response);
        if (!outcome.recorded) throw notFound('knowledge unit');
      });
    },
  );

  app.delete(
    '/v1/knowledge/:id',
    {
      config: { access: 'agent' },
      schema: {
        summary: 'Permanently delete a knowledge unit (its contributor with write scope, or an admin)',
        tags: ['knowledge'],
        security: [{ bearerAuth: [] }],
        params: IdParams,
        response: { 200: UnitDeleted, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const caller = requireAgent(request);
      const { id } = request.params;
      const unit = await deps.store.getUnit(id);
      if (!unit) throw notFound('knowledge unit');
      if (!isAdmin(caller)) {
        if (unit.agent_id !== caller.agentId) throw forbidden('only the contributor or an admin may delete this unit');
        requireScope(request, 'write');
      }
      if (!(await deps.store.deleteUnit(id))) throw notFound('knowledge unit');
      return { data: { id, deleted: true } };
    },
  );
};
