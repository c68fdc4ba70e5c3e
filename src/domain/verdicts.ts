// The verdict rule: one verdict per agent per unit. A later verdict from the same agent replaces the
// earlier one and earns nothing more; only the first earns the validation reward. A verdict counts with
// the validator's standing (its weight), so throwaway agents move a unit's quality little; the unit's
// quality is then recomputed from the weighted sums. Pure: a store applies the decision inside its
// transaction.
import { unitQuality } from './quality.js';
import { REWARD_MILLIS } from './reputation.js';

/** Contributions (units and skills held) at which a validator's verdicts count in full. */
export const FULL_STANDING_CONTRIBUTIONS = 10;
/** What a verdict from an agent with no contributions counts. */
export const MIN_VERDICT_WEIGHT = 0.1;

/**
 * A validator's weight, from its standing: 0.1 with no contributions, rising linearly to 1 at 10
 * contributions it still holds (deleting a contribution lowers it again). Rounded to 4 decimals.
 */
export function verdictWeight(contributions: number): number {
  const standing = Math.min(1, Math.max(0, contributions) / FULL_STANDING_CONTRIBUTIONS);
  return Math.round((MIN_VERDICT_WEIGHT + (1 - MIN_VERDICT_WEIGHT) * standing) * 10_000) / 10_000;
}

/** What the store reads, inside its transaction, before a verdict is applied. */
export interface VerdictState {
  baseQuality: number;
  valid: number;
  invalid: number;
  validWeight: number;
  invalidWeight: number;
  /** The same agent's earlier verdict on the unit, if any. */
  previous: { valid: boolean; weight: number } | null;
}

/** What the store writes: the unit's new counts, weighted sums and score, and the validator's reward (0: none). */
export interface VerdictDecision {
  valid: number;
  invalid: number;
  validWeight: number;
  invalidWeight: number;
  qualityScore: number;
  rewardMillis: number;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export function decideVerdict(state: VerdictState, verdict: { valid: boolean; weight: number }): VerdictDecision {
  let valid = state.valid;
  let invalid = state.invalid;
  let validWeight = state.validWeight;
  let invalidWeight = state.invalidWeight;
  if (state.previous?.valid === true) {
    valid -= 1;
    validWeight -= state.previous.weight;
  } else if (state.previous?.valid === false) {
    invalid -= 1;
    invalidWeight -= state.previous.weight;
  }
  if (verdict.valid) {
    valid += 1;
    validWeight += verdict.weight;
  } else {
    invalid += 1;
    invalidWeight += verdict.weight;
  }
  validWeight = Math.max(0, round4(validWeight));
  invalidWeight = Math.max(0, round4(invalidWeight));
  return {
    valid,
    invalid,
    validWeight,
    invalidWeight,
    qualityScore: unitQuality(state.baseQuality, validWeight, invalidWeight),
    rewardMillis: state.previous === null ? REWARD_MILLIS.validate_knowledge : 0,
  };
}
