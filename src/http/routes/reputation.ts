// GET /v1/reputation/:agent_id — public.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { AgentParams, ReputationOne, errors } from '../schemas.js';

/** The profile carries the newest history items; the export has them all. */
export const PROFILE_HISTORY_LIMIT = 100;

export const reputationRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, deps) => {
  app.get(
    '/v1/reputation/:agent_id',
    {
      schema: {
        summary: "An agent's reputation: score, counts and the newest 100 history items",
        tags: ['reputation'],
        params: AgentParams,
        response: { 200: ReputationOne, ...errors(400, 404, 429) },
      },
    },
    async (request) => {
      const profile = await deps.store.reputation(request.params.agent_id, PROFILE_HISTORY_LIMIT);
      if (!profile) throw notFound('agent');
      return { data: profile };
    },
  );
};
