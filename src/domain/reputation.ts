// Reputation: what each action earns, how a history item moves an agent's totals, and how a deleted
// contribution's reward is taken back. Amounts are kept in thousandths of a REG-REP point, so sums are
// exact (0.1 + 0.2 is 0.3). Pure: a store applies these inside the write's transaction.
import type { ReputationAction } from './model.js';

export const REWARD_MILLIS: Record<ReputationAction, number> = {
  contribute_skill: 100,
  contribute_knowledge: 200,
  validate_knowledge: 50,
};

export function millisToPoints(millis: number): number {
  return millis / 1000;
}

/** The reward of an action as people read it: "0.2 reputation". */
export function rewardText(action: ReputationAction): string {
  return `${millisToPoints(REWARD_MILLIS[action])} reputation`;
}

/** How an agent's running totals move. */
export interface StandingMove {
  scoreMillis: number;
  contributions: number;
  validations: number;
}

/**
 * `count` rewards of `millis` each for `action`: the score moves by all of them, and the count the action
 * keeps (contributions for skills and units, validations for verdicts) by `count`.
 */
export function rewardMove(action: ReputationAction, millis: number, count = 1): StandingMove {
  const contribution = action !== 'validate_knowledge';
  return {
    scoreMillis: millis * count,
    contributions: contribution ? count : 0,
    validations: contribution ? 0 : count,
  };
}

/**
 * A deleted contribution's reward, taken back: a history item of the negated sum given for it, and one
 * contribution less; nothing when nothing was given (or it was already taken back).
 */
export function takeBack(
  action: ReputationAction,
  givenMillis: number,
): { deltaMillis: number; move: StandingMove } | null {
  if (givenMillis <= 0) return null;
  return { deltaMillis: -givenMillis, move: rewardMove(action, givenMillis, -1) };
}
