// Unit list totals on PostgreSQL: writes append their changes to unit_count_changes (triggers of
// migration 10), and this folds them into unit_counts. Every instance folds; two folds never take the same
// change (each is deleted by the fold that takes it) and lock the counts they move in one order. Both
// tables churn (a row appended and deleted per write, a count updated per fold), so the store vacuums them
// itself once their dead rows pile up, whatever autovacuum does.
import { run, runAdHoc, type Queryable } from './connection.js';

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

/** How often each instance looks at the count tables' dead rows. */
export const VACUUM_CHECK_EVERY_MS = 10_000;

/** Dead rows in a count table past which it is vacuumed. */
export const VACUUM_DEAD_ROWS = 10_000;

const TABLES = ['unit_count_changes', 'unit_counts'] as const;

const BLOATED = `SELECT relname FROM pg_stat_user_tables
  WHERE relid IN ('unit_count_changes'::regclass, 'unit_counts'::regclass) AND n_dead_tup >= $1`;

/**
 * Vacuums each count table holding `deadRows` dead rows or more; answers the tables vacuumed. A total
 * reads every change not folded yet, so the changes table is scanned whole: with the dead rows of a
 * million writes in it (a bulk import, before autovacuum's turn or with autovacuum off) a list took
 * 16 ms instead of 1. SKIP_LOCKED: when another instance is vacuuming it, this one goes on.
 */
export async function vacuumUnitCounts(db: Queryable, deadRows = VACUUM_DEAD_ROWS): Promise<string[]> {
  const found = new Set((await run<{ relname: string }>(db, BLOATED, [deadRows])).rows.map((row) => row.relname));
  const bloated = TABLES.filter((table) => found.has(table));
  // VACUUM runs outside a transaction, as a simple query (no parameters).
  for (const table of bloated) await runAdHoc(db, `VACUUM (SKIP_LOCKED) ${table}`, []);
  return bloated;
}
