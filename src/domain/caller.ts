// Who is calling: what the authentication layer learns from a request's credential, and what every
// policy decision (domain/access.ts) is made on. Shared by every door into the registry (REST, MCP).
import type { Scope, Tier } from './model.js';

export interface Caller {
  authenticated: boolean;
  /** The SHA-256 hash of the API key used, never the key itself. */
  apiKey: string | null;
  tier: Tier;
  agentId: string | null;
  scopes: Scope[];
  keyId: number | null;
  method: 'api_key' | 'oidc' | null;
}

/** An authenticated caller: an agent. */
export type Agent = Caller & { authenticated: true; agentId: string };

export const ANONYMOUS: Caller = Object.freeze({
  authenticated: false,
  apiKey: null,
  tier: 'anonymous',
  agentId: null,
  scopes: [],
  keyId: null,
  method: null,
}) as Caller;

export const isAgent = (caller: Caller): caller is Agent => caller.authenticated && caller.agentId !== null;
export const hasScope = (caller: Caller, scope: Scope) => caller.authenticated && caller.scopes.includes(scope);
export const isAdmin = (caller: Caller) => hasScope(caller, 'admin');
