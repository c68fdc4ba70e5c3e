// Rewards are kept in thousandths of a REG-REP point, so sums are exact: 0.1 + 0.2 is 0.3.
import type { ReputationAction } from './model.js';

export const REWARD_MILLIS: Record<ReputationAction, number> = {
  contribute_skill: 100,
  contribute_knowledge: 200,
  validate_knowledge: 50,
};

export function millisToPoints(millis: number): number {
  return millis / 1000;
}
