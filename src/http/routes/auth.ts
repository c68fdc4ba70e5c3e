// POST /v1/auth/register and POST /v1/auth/revoke.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isReservedForIdentityProvider } from '../../domain/agent-ids.js';
import { keyPrefixOf, hashApiKey } from '../../domain/keys.js';
import { AgentExistsError, PrefixTakenError, type NewKey } from '../../store/store.js';
import { isoNow, type Deps } from '../deps.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { isAdmin, requireAgent } from '../guards.js';
import { respondOnce } from '../idempotency.js';
import { rateLimitKey } from '../rate-limit.js';
import { ApiKeyCreated, RegisterBody, RevokeBody, Revoked, errors } from '../schemas.js';

// Two unrevoked keys may not share a prefix; a clash (about 1 in 14 million per live key) draws again.
const KEY_ATTEMPTS = 8;

const FIRST_ADMIN_HINT =
  'the admin scope is granted only to a caller with admin scope (or with REG_OPEN_ADMIN_REGISTRATION set); ' +
  'an operator creates the first admin key on the server host with: npm run admin:create -- --agent-id <id>';

const IDP_AGENT_HINT =
  'is an identity-provider agent: it authenticates with its tokens, and no API key is issued for it, ' +
  'so access ends when the identity provider stops issuing them';

function refuseReservedAgentId(agentId: string, agentPrefix: string | undefined): void {
  if (isReservedForIdentityProvider(agentId, agentPrefix)) {
    throw badRequest(`agent_id must not start with "${agentPrefix}": that prefix is reserved for identity-provider agents`);
  }
}

/**
 * SPEC.md exempts registration from rate limits; an operator facing abuse of the open door may set
 * REG_REGISTER_LIMIT, a budget per client address per hour, counted apart from every other limit.
 */
function registerLimit(perHour: number | null) {
  if (perHour === null) return false as const;
  return { max: perHour, timeWindow: 3_600_000, keyGenerator: (request: FastifyRequest) => rateLimitKey(null, request.ip) };
}

export const authRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, deps) => {
  app.post(
    '/v1/auth/register',
    {
      config: { rateLimit: registerLimit(deps.config.registerLimitPerHour) },
      schema: {
        summary: 'Register an agent (or add a key to your own agent) and receive an API key once',
        tags: ['auth'],
        body: RegisterBody,
        response: { 201: ApiKeyCreated, ...errors(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const { agent_id: agentId, scopes, tier } = request.body;
      const caller = request.auth;
      refuseReservedAgentId(agentId, deps.config.oidc?.agentPrefix);
      if (scopes.includes('admin') && !isAdmin(caller) && !deps.config.openAdminRegistration) {
        throw forbidden(FIRST_ADMIN_HINT);
      }
      const actsForAgent = caller.authenticated && (caller.agentId === agentId || isAdmin(caller));
      // A key of an agent may mint further keys for it, but none with a scope it does not hold itself.
      if (caller.authenticated && caller.agentId === agentId && !isAdmin(caller)) {
        const extra = scopes.filter((s) => !caller.scopes.includes(s));
        if (extra.length > 0) throw forbidden(`a new key cannot have scopes the calling key lacks: ${extra.join(', ')}`);
      }

      const now = deps.clock();
      const createdAt = now.toISOString();
      for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
        const apiKey = deps.ids.apiKey();
        const key: NewKey = { agentId, keyHash: hashApiKey(apiKey), keyPrefix: keyPrefixOf(apiKey), scopes, tier, createdAt };
        const created = {
          data: { api_key: apiKey, key_prefix: key.keyPrefix, scopes, tier, created_at: createdAt },
          message: 'API key created. Store it now: it is shown only once and cannot be recovered.',
        };
        try {
          return await respondOnce(request, reply, deps.store, now, 201, created, async (response) => {
            try {
              await deps.store.createAgentWithKey(key, response);
            } catch (error) {
              if (!(error instanceof AgentExistsError)) throw error;
              // An origin never changes once claimed, so this check cannot race a token's first use.
              if ((await deps.store.agentOrigin(agentId)) === 'oidc') throw forbidden(`agent_id ${agentId} ${IDP_AGENT_HINT}`);
              if (!actsForAgent) {
                throw conflict(`agent_id ${agentId} is already registered; only that agent (or an admin) can add keys to it`);
              }
              await deps.store.addKey(key, response);
            }
          });
        } catch (error) {
          if (error instanceof PrefixTakenError) continue;
          throw error;
        }
      }
      throw new Error('could not draw an unused key prefix');
    },
  );

  app.post(
    '/v1/auth/revoke',
    {
      config: { access: 'agent' },
      schema: {
        summary: 'Revoke an API key of your own agent (admins: any key) by its prefix',
        tags: ['auth'],
        security: [{ bearerAuth: [] }],
        body: RevokeBody,
        response: { 200: Revoked, ...errors(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const caller = requireAgent(request);
      const { key_prefix: prefix } = request.body;
      const key = await deps.store.findActiveKeyByPrefix(prefix);
      // Another agent's key is reported exactly like a missing one, so prefixes reveal nothing.
      if (!key || (key.agentId !== caller.agentId && !isAdmin(caller))) throw notFound(`active key with prefix ${prefix}`);
      const now = deps.clock();
      return respondOnce(request, reply, deps.store, now, 200, { data: { revoked: true, key_prefix: prefix } }, async (response) => {
        if (!(await deps.store.revokeKey(key.id, now.toISOString(), response))) {
          throw notFound(`active key with prefix ${prefix}`);
        }
      });
    },
  );
};
