// What a verdict's decision writes to its unit, written once for both backends' verdict writers.
import type { VerdictDecision } from '../domain/verdicts.js';
import { sql, type Sql } from './sql.js';

/** What a verdict's decision writes to its unit: the counts, weights and quality, and the time. */
export const verdictTallyUpdate = (d: VerdictDecision, at: string, seq: unknown): Sql =>
  sql`UPDATE knowledge_units SET valid_count = ${d.valid}, invalid_count = ${d.invalid}, valid_weight = ${d.validWeight},
    invalid_weight = ${d.invalidWeight}, quality_score = ${d.qualityScore}, updated_at = ${at} WHERE seq = ${seq}`;
