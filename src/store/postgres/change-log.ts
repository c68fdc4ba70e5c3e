// The change log's transaction ids (migration 11) come from the PostgreSQL cluster that wrote them. A
// database restored into another cluster (pg_dump, then pg_restore elsewhere) may carry ids that cluster has
// not reached yet: its next changes would sort before them, behind every reader, and never be read. So at
// open, a log holding an id from beyond this cluster's next one is taken as settled history (tx 0, read in
// number order before anything new), and the database draws a new identity, so every search index of it
// rebuilds instead of following a log it cannot place.
import type pg from 'pg';

/** The migration that gave changes their transaction id. */
export const TX_IN_CHANGE_LOG = 11;

export async function adoptForeignChangeLog(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ foreign: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM search_changes WHERE tx >= pg_snapshot_xmax(pg_current_snapshot())::text::bigint) AS foreign`,
  );
  if (!rows[0]!.foreign) return false;
  await client.query('BEGIN');
  try {
    await client.query('UPDATE search_changes SET tx = 0 WHERE tx <> 0');
    await client.query('UPDATE registry_meta SET database_id = gen_random_uuid()::text, log_purged_tx = 0');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  return true;
}
