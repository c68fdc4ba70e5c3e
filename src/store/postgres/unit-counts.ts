// Unit list totals on PostgreSQL: writes append their changes to unit_count_changes (triggers of
// migration 10), and this folds them into unit_counts. Every instance folds; two folds never take the same
// change (each is deleted by the fold that takes it) and lock the counts they move in one order.
import { run, type Queryable } from './connection.js';

/** How often each instance folds: a total reads the changes not folded yet, so there should be few. */
export const FOLD_EVERY_MS = 1_000;

const FOLD = `
WITH taken AS (DELETE FROM unit_count_changes RETURNING domain, type, bucket, n),
moved AS (SELECT domain, type, bucket, sum(n) AS n FROM taken GROUP BY domain, type, bucket)
INSERT INTO unit_counts AS c (domain, type, bucket, n)
SELECT domain, type, bucket, n FROM moved ORDER BY domain, type, bucket
ON CONFLICT (domain, type, bucket) DO UPDATE SET n = c.n + excluded.n`;

/** Folds the changes appended so far into the counts; answers how many buckets moved. */
export async function foldUnitCounts(db: Queryable): Promise<number> {
  return (await run(db, FOLD)).rowCount ?? 0;
}
