// POST /v1/auth/register and POST /v1/auth/revoke.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { actsForAgent, assertMayChooseTier, assertMayGrantScopes, requireAgent } from '../../domain/access.js';
import type { Context } from '../../service/context.js';
import { issueKey, prepareRevoke } from '../../service/keys.js';
import { respondOnce } from '../idempotency.js';
import { rateLimitKey } from '../rate-limit.js';
import { ApiKeyCreated, RegisterBody, RevokeBody, Revoked, errors } from '../schemas.js';

/**
 * SPEC.md exempts registration from rate limits; an operator facing abuse of the open door may set
 * REG_REGISTER_LIMIT, a budget per client address per hour, counted apart from every other limit.
 */
function registerLimit(perHour: number | null) {
  if (perHour === null) return false as const;
  return { max: perHour, timeWindow: 3_600_000, keyGenerator: (request: FastifyRequest) => rateLimitKey(null, request.ip) };
}

export const authRoutes: FastifyPluginAsyncTypebox<Context> = async (app, ctx) => {
  app.post(
    '/v1/auth/register',
    {
      config: { rateLimit: registerLimit(ctx.config.registerLimitPerHour), carriesSecret: true },
      schema: {
        summary: 'Register an agent (or add a key to your own agent) and receive an API key once',
        operationId: 'registerAgent',
        description: 'Open to anyone and not rate limited. With a key of that agent (or an admin key), adds a key to an existing agent. The admin scope needs an admin caller.',
        tags: ['auth'],
        body: RegisterBody,
        response: { 201: ApiKeyCreated, ...errors(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const { agent_id: agentId, scopes, tier } = request.body;
      // The raw key is in this answer: no cache or proxy may keep it.
      reply.header('cache-control', 'no-store');
      assertMayGrantScopes(request.auth, agentId, scopes, ctx.config.openAdminRegistration);
      assertMayChooseTier(request.auth, tier, ctx.config.selfServiceTiers);
      return issueKey(ctx, { agentId, scopes, tier }, actsForAgent(request.auth, agentId), (change) =>
        respondOnce(request, reply, ctx.store, change),
      );
    },
  );

  app.post(
    '/v1/auth/revoke',
    {
      config: { access: 'agent' },
      schema: {
        summary: 'Revoke an API key of your own agent (admins: any key) by its prefix',
        operationId: 'revokeKey',
        description: 'The key is refused from the next request on, on every instance.',
        tags: ['auth'],
        security: [{ bearerAuth: [] }],
        body: RevokeBody,
        response: { 200: Revoked, ...errors(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const change = await prepareRevoke(ctx, requireAgent(request.auth), request.body.key_prefix);
      return respondOnce(request, reply, ctx.store, change);
    },
  );
};
