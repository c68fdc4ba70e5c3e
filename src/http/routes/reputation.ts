// GET /v1/reputation/:agent_id — public.
import { reputationProfile } from '../../service/reputation.js';
import { AgentParams, ReputationOne, errors } from '../schemas.js';
import { resourceRoutes } from './resource.js';

/** The profile carries the newest history items; the export has them all. */
export const PROFILE_HISTORY_LIMIT = 100;

export const reputationRoutes = resourceRoutes('reputation', (route, ctx) => {
  route.get(
    '/v1/reputation/:agent_id',
    {
      summary: `An agent's reputation: score, counts and the newest ${PROFILE_HISTORY_LIMIT} history items`,
      operationId: 'getReputation',
      description: 'Public. Items about private skills are shown only to the agent itself and admins.',
      params: AgentParams,
      response: { 200: ReputationOne, ...errors(400, 404, 429) },
    },
    async (request) => ({
      data: await reputationProfile(ctx, request.auth, request.params.agent_id, PROFILE_HISTORY_LIMIT),
    }),
  );
});
