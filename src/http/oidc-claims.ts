// How a verified JWT's claims become an identity (docs/oidc.md): the agent id (agent_id, else sub, with the
// configured prefix), the tier and the scopes, strictly: anything outside the known values refuses the whole
// token. Also what jose leaves to us: the declared token type and an issue time in the future.
import type { JWTHeaderParameters, JWTPayload } from 'jose';
import { KEY_TIERS, SCOPES, type KeyTier, type Scope } from '../domain/model.js';
import { isStorableText } from '../domain/text.js';

const DEFAULT_TIER: KeyTier = 'pro';
const DEFAULT_SCOPES: Scope[] = ['read', 'write'];
const MAX_AGENT_ID_LENGTH = 256;
// Control, format (zero-width, bidi overrides) and line-separator characters make ids that look like others.
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const EDGE_WHITESPACE = /^\s|\s$/u;
// "." and ".." would be dot segments in /v1/reputation/:agent_id and /v1/export/:agent_id.
const DOT_SEGMENTS = new Set(['.', '..']);
// An ID token, an access token (RFC 9068) or no type; anything else (logout+jwt…) is meant for another use.
const ACCEPTED_TYPES = new Set(['jwt', 'at+jwt']);

export type Identity = { agentId: string; tier: KeyTier; scopes: Scope[] };

function agentIdOf(payload: JWTPayload, agentPrefix: string): string | { problem: string } {
  // agent_id wins over sub when present at all; a present but unusable agent_id refuses the token
  // rather than silently falling back to another identity.
  const claim = payload.agent_id !== undefined ? 'agent_id' : 'sub';
  const value = payload[claim];
  if (value === undefined) return { problem: 'neither agent_id nor sub is present' };
  const maxLength = MAX_AGENT_ID_LENGTH - agentPrefix.length;
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    return { problem: `${claim} must be a string of 1 to ${maxLength} characters` };
  }
  if (INVISIBLE_CHARACTERS.test(value) || !isStorableText(value)) {
    return { problem: `${claim} contains control, format or line-separator characters, or is not well-formed text` };
  }
  if (EDGE_WHITESPACE.test(value)) return { problem: `${claim} has leading or trailing whitespace` };
  const agentId = agentPrefix + value;
  if (DOT_SEGMENTS.has(agentId)) return { problem: `${claim} may not be "." or ".."` };
  return agentId;
}

function scopesOf(claim: unknown): Scope[] | { problem: string } {
  if (claim === undefined) return [...DEFAULT_SCOPES];
  const values = typeof claim === 'string' ? claim.trim().split(/ +/) : claim;
  if (!Array.isArray(values) || values.length === 0 || values.some((s) => !SCOPES.includes(s as Scope))) {
    return { problem: `scopes must be a non-empty list (array or space-separated) of ${SCOPES.join(', ')}` };
  }
  return SCOPES.filter((scope) => values.includes(scope));
}

/** The claim mapping (docs/oidc.md), strict: anything outside the known values refuses the whole token. */
export function identityFromClaims(payload: JWTPayload, agentPrefix = ''): Identity | { problem: string } {
  const agentId = agentIdOf(payload, agentPrefix);
  if (typeof agentId !== 'string') return agentId;
  const tier = payload.reg_tier === undefined ? DEFAULT_TIER : payload.reg_tier;
  if (!KEY_TIERS.includes(tier as KeyTier)) return { problem: `reg_tier must be one of ${KEY_TIERS.join(', ')}` };
  const scopes = scopesOf(payload.scopes);
  if (!Array.isArray(scopes)) return scopes;
  return { agentId, tier: tier as KeyTier, scopes };
}

/** What jose leaves to us: the token's declared type, and an `iat` that lies in the future. */
export function tokenUseProblem(
  header: JWTHeaderParameters,
  payload: JWTPayload,
  nowSec: number,
  toleranceSec: number,
): string | null {
  if (header.typ !== undefined) {
    const typ = typeof header.typ === 'string' ? header.typ.toLowerCase().replace(/^application\//, '') : null;
    if (typ === null || !ACCEPTED_TYPES.has(typ)) return `typ ${JSON.stringify(header.typ)} is not JWT or at+jwt`;
  }
  // jose checks iat only against a maximum age; a token issued "later" is a broken or forged clock.
  if (typeof payload.iat === 'number' && payload.iat > nowSec + toleranceSec) return 'iat is in the future';
  return null;
}
