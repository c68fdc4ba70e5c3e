// The reputation rules: what an action earns, how items move an agent's totals, and taking a deleted
// contribution's reward back. The stores apply these inside their transactions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REWARD_MILLIS, rewardMove, rewardText, takeBack } from '../../src/domain/reputation.js';

describe('reputation rules', () => {
  it('say each reward in words, from the one table of amounts', () => {
    assert.equal(rewardText('contribute_knowledge'), '0.2 reputation');
    assert.equal(rewardText('validate_knowledge'), '0.05 reputation');
    assert.equal(rewardText('contribute_skill'), '0.1 reputation');
  });

  it('count contributions for skills and units, validations for verdicts', () => {
    assert.deepEqual(rewardMove('contribute_knowledge', REWARD_MILLIS.contribute_knowledge), {
      scoreMillis: 200,
      contributions: 1,
      validations: 0,
    });
    assert.deepEqual(rewardMove('contribute_skill', 100, 3), { scoreMillis: 300, contributions: 3, validations: 0 });
    assert.deepEqual(rewardMove('validate_knowledge', 50, 2), { scoreMillis: 100, contributions: 0, validations: 2 });
  });

  it('take back what was given for a deleted contribution, once', () => {
    assert.deepEqual(takeBack('contribute_knowledge', 200), {
      deltaMillis: -200,
      move: { scoreMillis: -200, contributions: -1, validations: 0 },
    });
    assert.equal(takeBack('contribute_knowledge', 0), null, 'already taken back: the history sums to zero');
    assert.equal(takeBack('contribute_skill', -100), null);
  });
});
