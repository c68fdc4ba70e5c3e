// Keys: registration (who may ask for which scopes and tier, then the one key issuer behind it and
// `npm run admin:create`), revocation by prefix, an agent's keys, and who a credential is.
import { isReservedForIdentityProvider } from '../domain/agent-ids.js';
import { actsForAgent, assertMayChooseTier, assertMayGrantScopes, assertMayRevoke } from '../domain/access.js';
import type { Caller } from '../domain/caller.js';
import { ApiError, badRequest, conflict, notFound } from '../domain/errors.js';
import { hashApiKey, keyPrefixOf, looksLikeApiKey, sameHash } from '../domain/keys.js';
import type { KeyMetadata, KeyTier, Scope } from '../domain/model.js';
import { AgentConfusableError, AgentExistsError, PrefixTakenError, type NewKey, type Store } from '../store/store.js';
import type { Change, Context } from './context.js';
import { operation } from './operation.js';
import { ACCESS } from '../domain/operations.js';

/** Two unrevoked keys may not share a prefix; a clash (about 1 in 14 million per live key) draws again. */
export const KEY_ATTEMPTS = 8;

export interface KeyRequest {
  agentId: string;
  scopes: Scope[];
  tier: KeyTier;
}

export interface KeyCreated {
  data: { api_key: string; key_prefix: string; scopes: Scope[]; tier: KeyTier; created_at: string };
  message: string;
}

/**
 * Every draw hit a prefix an unrevoked key holds: the 8-character prefix space (62^4 random parts) is
 * nearly full. Not the client's fault and not a bug: 503, logged for the operator.
 */
export class PrefixSpaceExhaustedError extends ApiError {
  constructor() {
    super(
      503,
      'UNAVAILABLE',
      `no unused key prefix found in ${KEY_ATTEMPTS} draws: the registry's key prefixes are nearly exhausted; retry later`,
      {
        'retry-after': '60',
      },
    );
  }
}

/** The agent id was claimed through the identity provider: it authenticates with tokens, never keys. */
export class IdentityProviderAgentError extends ApiError {
  constructor(readonly agentId: string) {
    super(
      403,
      'FORBIDDEN',
      `agent_id ${agentId} is an identity-provider agent: it authenticates with its tokens, and no API key ` +
        'is issued for it, so access ends when the identity provider stops issuing them',
    );
  }
}

/**
 * Issues a new key for `request.agentId`: claims the id with its first key, or, when it is claimed and
 * `mayAddToExisting` (the caller acts for that agent), adds a key to it; otherwise 409. Who may ask for
 * which scopes is the caller's decision (domain/access.ts), made before. `apply` writes the change
 * (with or without an idempotency record) and answers; a prefix clash draws a new key.
 */
export async function issueKey<R>(
  ctx: Context,
  request: KeyRequest,
  mayAddToExisting: boolean,
  apply: (change: Change<KeyCreated>) => Promise<R>,
): Promise<R> {
  const { agentId, scopes, tier } = request;
  const agentPrefix = ctx.config.oidc?.agentPrefix;
  if (isReservedForIdentityProvider(agentId, agentPrefix)) {
    throw badRequest(
      `agent_id must not start with "${agentPrefix}", or with anything that looks like it: that prefix is reserved for identity-provider agents`,
    );
  }
  const at = ctx.clock();
  const createdAt = at.toISOString();
  for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
    const apiKey = ctx.ids.apiKey();
    const key: NewKey = {
      agentId,
      keyHash: hashApiKey(apiKey),
      keyPrefix: keyPrefixOf(apiKey),
      scopes,
      tier,
      createdAt,
    };
    const body: KeyCreated = {
      data: { api_key: apiKey, key_prefix: key.keyPrefix, scopes, tier, created_at: createdAt },
      message: 'API key created. Store it now: it is shown only once and cannot be recovered.',
    };
    const write = async (response?: Parameters<Change<KeyCreated>['write']>[0]) => {
      try {
        await ctx.store.createAgentWithKey(key, response);
      } catch (error) {
        if (!(error instanceof AgentExistsError)) throw error;
        // An origin never changes once claimed, so this check cannot race a token's first use.
        if ((await ctx.store.agentOrigin(agentId)) === 'oidc') throw new IdentityProviderAgentError(agentId);
        if (!mayAddToExisting) {
          throw conflict(`agent_id ${agentId} is already registered; only that agent (or an admin) can add keys to it`);
        }
        await ctx.store.addKey(key, response);
      }
    };
    try {
      return await apply({ status: 201, body, at, write });
    } catch (error) {
      if (error instanceof PrefixTakenError) continue;
      if (error instanceof AgentConfusableError) {
        throw conflict(
          `agent_id ${agentId} looks like the id of an existing agent (letters that look alike, or differ only in case); choose another`,
        );
      }
      throw error;
    }
  }
  // Only when nearly every prefix is taken by an unrevoked key (docs/security.md: key prefix exhaustion).
  throw new PrefixSpaceExhaustedError();
}

export interface Revoked {
  data: { revoked: boolean; key_prefix: string };
}

/**
 * Registration, open to anyone: a key for a new agent id, or one more key for the caller's own agent (an
 * admin's for any), with the scopes and tier the caller may grant (domain/access.ts). `apply` writes it.
 */
export const register = Object.assign(
  <R>(
    ctx: Context,
    caller: Caller,
    request: KeyRequest,
    apply: (change: Change<KeyCreated>) => Promise<R>,
  ): Promise<R> => {
    assertMayGrantScopes(caller, request.agentId, request.scopes, ctx.config.openAdminRegistration);
    assertMayChooseTier(caller, request.tier, ctx.config.selfServiceTiers);
    return issueKey(ctx, request, actsForAgent(caller, request.agentId), apply);
  },
  { access: 'public' as const },
);

/** Revokes the active key with `prefix`, if the caller may (its own agent's keys; an admin any key). */
export const revokeKey = operation(ACCESS.revokeKey, async (ctx, caller, prefix: string): Promise<Change<Revoked>> => {
  const key = await ctx.store.findActiveKeyByPrefix(prefix);
  assertMayRevoke(caller, key, prefix);
  const at = ctx.clock();
  return {
    status: 200,
    body: { data: { revoked: true, key_prefix: prefix } },
    at,
    write: async (response) => {
      if (!(await ctx.store.revokeKey(key.id, at.toISOString(), response)))
        throw notFound(`active key with prefix ${prefix}`);
    },
  };
});

/** The caller's agent's keys, revoked ones too (never hashes). An identity-provider agent has none. */
export const listKeys = operation(ACCESS.listKeys, async (ctx, caller): Promise<KeyMetadata[]> => {
  const keys: KeyMetadata[] = [];
  for await (const key of ctx.store.exportKeys(caller.agentId)) keys.push(key);
  return keys;
});

export interface Identity {
  agent_id: string;
  tier: KeyTier;
  scopes: Scope[];
  credential: 'api_key' | 'oidc';
  key_prefix: string | null;
}

/** Who the caller is: its agent, tier and scopes, and the prefix of the key it used (none for a token). */
export const whoami = operation(ACCESS.whoami, async (ctx, caller): Promise<Identity> => {
  const key = caller.method === 'api_key' && caller.apiKey ? await ctx.store.findKeyByHash(caller.apiKey) : null;
  return {
    agent_id: caller.agentId,
    // An authenticated caller always has a key tier (anonymous callers never reach this).
    tier: caller.tier as KeyTier,
    scopes: caller.scopes,
    credential: caller.method === 'oidc' ? 'oidc' : 'api_key',
    key_prefix: key?.keyPrefix ?? null,
  };
});

/** The agent an API key stands for, with its scopes and tier; null for a key that is unknown, revoked or malformed. */
export function callerOfApiKey(store: Store): (token: string) => Promise<Caller | null> {
  return async (token) => {
    if (!looksLikeApiKey(token)) return null;
    const hash = hashApiKey(token);
    const key = await store.findKeyByHash(hash);
    if (!key || key.revokedAt !== null || !sameHash(key.keyHash, hash)) return null;
    return {
      authenticated: true,
      apiKey: key.keyHash,
      tier: key.tier,
      agentId: key.agentId,
      scopes: key.scopes,
      keyId: key.id,
      method: 'api_key',
    };
  };
}
