// Rules on agent ids beyond their pattern: ids reserved for an identity provider, and look-alike ids.
import { lookalikeKey } from './confusables.js';

/**
 * With REG_OIDC_AGENT_PREFIX set, ids under it belong to the identity provider, so nobody can pre-claim
 * an IdP user's id. Compared by look, without regard to case, so no key-registered id can even pass for one.
 */
export function isReservedForIdentityProvider(agentId: string, agentPrefix: string | undefined): boolean {
  return Boolean(agentPrefix) && lookalikeKey(agentId).startsWith(lookalikeKey(agentPrefix!));
}

/**
 * The skeleton an agent id holds: what it looks like, case set aside (`lookalikeKey`). Two ids sharing it
 * are confusable (`alice`, `Alice`, `ALICE`, `a1ice`, `aIice`, `AIice`, `ALlCE`); registration refuses an
 * id whose skeleton another agent holds.
 */
export function agentIdSkeleton(agentId: string): string {
  return lookalikeKey(agentId);
}
