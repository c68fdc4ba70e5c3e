// Rules on agent ids beyond their pattern: ids reserved for an identity provider, and look-alike ids.
import unhomoglyph from 'unhomoglyph';

/**
 * With REG_OIDC_AGENT_PREFIX set, ids under it belong to the identity provider, so nobody can pre-claim
 * an IdP user's id. Compared without regard to case, so no key-registered id can even pass for one.
 */
export function isReservedForIdentityProvider(agentId: string, agentPrefix: string | undefined): boolean {
  return Boolean(agentPrefix) && agentId.toLowerCase().startsWith(agentPrefix!.toLowerCase());
}

/**
 * The skeletons of an id (Unicode TR39): look-alike characters mapped to one representative (`1`, `I`
 * and `|` to `l`, `0` to `O`, Cyrillic `а` to `a`, `rn` for `m` …), once as written and once lower-cased
 * first, so that ids differing in case are confusable too. Two ids sharing a skeleton are confusable
 * (`alice`, `Alice`, `ALICE`, `a1ice`, `aIice`); registration refuses an id whose skeleton another
 * agent holds.
 */
export function agentIdSkeletons(agentId: string): string[] {
  const skeleton = (text: string) => unhomoglyph(text.normalize('NFD')).normalize('NFD');
  const asWritten = `s:${skeleton(agentId)}`;
  const folded = `c:${skeleton(skeleton(agentId.toLowerCase()).toLowerCase())}`;
  return [asWritten, folded];
}
