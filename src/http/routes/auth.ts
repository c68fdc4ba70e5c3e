// POST /v1/auth/register, POST /v1/auth/revoke, GET /v1/auth/keys and GET /v1/auth/whoami.
import type { FastifyRequest } from 'fastify';
import { listKeys, register, revokeKey, whoami } from '../../service/keys.js';
import { respondOnce } from '../idempotency.js';
import { resourceRoutes } from './resource.js';
import { rateLimitKey } from '../rate-limit.js';
import { ApiKeyCreated, KeyList, RegisterBody, RevokeBody, Revoked, WhoAmI, errors } from '../schemas.js';

/**
 * Registration is exempt from rate limits; an operator facing abuse of the open door may set
 * REG_REGISTER_LIMIT, a budget per client address per hour, counted apart from every other limit.
 */
function registerLimit(perHour: number | null) {
  if (perHour === null) return false as const;
  return {
    max: perHour,
    timeWindow: 3_600_000,
    keyGenerator: (request: FastifyRequest) => rateLimitKey(null, request.ip),
  };
}

export const authRoutes = resourceRoutes('auth', (route, ctx) => {
  route.post(
    '/v1/auth/register',
    {
      config: { rateLimit: registerLimit(ctx.config.registerLimitPerHour), carriesSecret: true },
      summary: 'Register an agent (or add a key to your own agent) and receive an API key once',
      operationId: 'registerAgent',
      description:
        'Open to anyone and not rate limited. With a key of that agent (or an admin key), adds a key to an existing agent. The admin scope needs an admin caller.',
      body: RegisterBody,
      response: { 201: ApiKeyCreated, ...errors(400, 403, 409) },
    },
    async (request, reply) => {
      const { agent_id: agentId, scopes, tier } = request.body;
      // The raw key is in this answer: no cache or proxy may keep it.
      reply.header('cache-control', 'no-store');
      return register(ctx, request.auth, { agentId, scopes, tier }, (change) =>
        respondOnce(request, reply, ctx.store, change),
      );
    },
  );

  route.post(
    '/v1/auth/revoke',
    {
      access: revokeKey.access,
      summary: 'Revoke an API key of your own agent (admins: any key) by its prefix',
      operationId: 'revokeKey',
      description: 'The key is refused from the next request on, on every instance.',
      body: RevokeBody,
      response: { 200: Revoked, ...errors(400, 401, 404, 429) },
    },
    async (request, reply) => {
      const change = await revokeKey(ctx, request.auth, request.body.key_prefix);
      return respondOnce(request, reply, ctx.store, change);
    },
  );

  route.get(
    '/v1/auth/keys',
    {
      access: listKeys.access,
      summary: "List your agent's API keys (prefixes, scopes, tiers, dates; never the keys or their hashes)",
      operationId: 'listKeys',
      description:
        'Any valid credential of the agent. Revoked keys are listed with revoked_at. An identity-provider agent has none.',
      response: { 200: KeyList, ...errors(401, 429) },
    },
    async (request) => ({ data: await listKeys(ctx, request.auth) }),
  );

  route.get(
    '/v1/auth/whoami',
    {
      access: whoami.access,
      summary:
        'Who this credential is: agent, tier, scopes, and the key prefix (or that it is an identity-provider token)',
      operationId: 'whoami',
      description:
        'Any valid credential. A refused credential answers 401, so a client can check a key before storing it.',
      response: { 200: WhoAmI, ...errors(401, 429) },
    },
    async (request) => ({ data: await whoami(ctx, request.auth) }),
  );
});
