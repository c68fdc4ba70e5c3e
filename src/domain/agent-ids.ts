// Which agent ids API keys may be issued for, when an identity provider shares the id space.

/**
 * With REG_OIDC_AGENT_PREFIX set, ids under it belong to the identity provider, so nobody can pre-claim
 * an IdP user's id. Compared without regard to case, so no key-registered id can even pass for one.
 */
export function isReservedForIdentityProvider(agentId: string, agentPrefix: string | undefined): boolean {
  return Boolean(agentPrefix) && agentId.toLowerCase().startsWith(agentPrefix!.toLowerCase());
}
