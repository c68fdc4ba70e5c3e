// Verdicts on PostgreSQL: two statements, one that reads what the verdict rule needs (the unit's row
// locked) and one that writes its decision (the verdict, the unit's tally and the validator's reward).
import type { PoolClient } from 'pg';
import * as rows from '../rows.js';
import { render } from '../sql.js';
import type { NewVerdict, VerdictOutcome } from '../store.js';
import { verdictTallyUpdate } from '../verdict-tally.js';
import { run } from './connection.js';
import { Sent } from './group-commit.js';
import { withWrites } from './statements.js';
import { reward } from './writes.js';

const VERDICT_UNIT = `
SELECT u.seq, u.base_quality, u.valid_count, u.invalid_count, u.valid_weight, u.invalid_weight,
  v.valid AS previous_valid, v.weight AS previous_weight
FROM knowledge_units u LEFT JOIN verdicts v ON v.unit_seq = u.seq AND v.agent_id = $2
WHERE u.id = $1
FOR UPDATE OF u`;

const UPSERT_VERDICT = `INSERT INTO verdicts (unit_seq, unit_id, agent_id, valid, feedback, created_at, updated_at, weight)
VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
ON CONFLICT (unit_seq, agent_id) DO UPDATE SET valid = excluded.valid, feedback = excluded.feedback,
  updated_at = excluded.updated_at, weight = excluded.weight`;

/**
 * Reads what the verdict rule needs (the unit, locked, and this agent's earlier verdict, one statement), lets
 * it decide, and writes its decision (the verdict, the unit's tally and the validator's reward, one statement).
 */
export async function recordVerdict(client: PoolClient, v: NewVerdict): Promise<VerdictOutcome | Sent<VerdictOutcome>> {
  // FOR UPDATE: verdicts on one unit, from any instance, queue here, so each one starts from the counts
  // the previous one committed and none is lost.
  const [unit] = (
    await run<{
      seq: string;
      base_quality: number;
      valid_count: number;
      invalid_count: number;
      valid_weight: number;
      invalid_weight: number;
      previous_valid: boolean | null;
      previous_weight: number | null;
    }>(client, VERDICT_UNIT, [v.unitId, v.agentId])
  ).rows;
  if (!unit) return { recorded: false, reason: 'not_found' };
  const previous =
    unit.previous_valid === null ? undefined : { valid: unit.previous_valid, weight: unit.previous_weight! };
  const decision = v.decide(rows.toVerdictState(unit, previous, rows.postgresDecode), {
    valid: v.valid,
    weight: v.weight,
  });
  const verdict = {
    name: 'verdict',
    text: UPSERT_VERDICT,
    values: [unit.seq, v.unitId, v.agentId, v.valid, v.feedback, v.at, v.weight],
  };
  const tally = render(verdictTallyUpdate(decision, v.at, unit.seq), 'postgres');
  const outcome = { recorded: true, first: previous === undefined } as const;
  // The write is sent and left unanswered: the group sends the next write behind it (group-commit.ts).
  if (decision.rewardMillis > 0) {
    const validator = { agentId: v.agentId, targetId: v.unitId, at: v.at };
    return new Sent(
      outcome,
      reward(client, [validator], 'validate_knowledge', decision.rewardMillis, undefined, [
        verdict,
        { name: 'tally', ...tally },
      ]),
    );
  }
  const statement = withWrites([verdict], tally);
  return new Sent(outcome, run(client, statement.text, statement.values));
}
