// The verdict rule: one verdict per agent per unit. A later verdict from the same agent replaces the
// earlier one and earns nothing more; only the first earns the validation reward. The unit's quality
// is then recomputed from the new counts. Pure: a store applies the decision inside its transaction.
import { unitQuality } from './quality.js';
import { REWARD_MILLIS } from './reputation.js';

/** What the store reads, inside its transaction, before a verdict is applied. */
export interface VerdictState {
  baseQuality: number;
  valid: number;
  invalid: number;
  /** The same agent's earlier verdict on the unit, if any. */
  previous: boolean | null;
}

/** What the store writes: the unit's new counts and score, and the validator's reward (0: none). */
export interface VerdictDecision {
  valid: number;
  invalid: number;
  qualityScore: number;
  rewardMillis: number;
}

export function decideVerdict(state: VerdictState, valid: boolean): VerdictDecision {
  let validCount = state.valid + (valid ? 1 : 0);
  let invalidCount = state.invalid + (valid ? 0 : 1);
  if (state.previous === true) validCount -= 1;
  if (state.previous === false) invalidCount -= 1;
  return {
    valid: validCount,
    invalid: invalidCount,
    qualityScore: unitQuality(state.baseQuality, validCount, invalidCount),
    rewardMillis: state.previous === null ? REWARD_MILLIS.validate_knowledge : 0,
  };
}
