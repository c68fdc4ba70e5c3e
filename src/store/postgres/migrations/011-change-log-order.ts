// Migration 11: a change log no reader can step past a transaction still in flight. A change's `seq` is
// drawn when its row is written, not when its transaction commits, so with several writers (instances,
// group commits) a lower number can become visible after a higher one. Each change now also records the
// transaction that wrote it (`tx`); readers go through the log in (tx, seq) order and settle a position
// only below the oldest transaction still running (search/change-cursor.ts). Rows logged before this
// migration are old and settled: tx 0.
// `registry_meta` holds what is the database's own: an identity drawn once (a search snapshot is tied to
// it, so one database never loads another's) and how far the log has been purged (a reader behind it
// rebuilds).
// Never edit a migration that has shipped: add the next number.
export const name = 'change log in commit-safe order, database identity';

export const sql = `
ALTER TABLE search_changes ADD COLUMN tx bigint NOT NULL DEFAULT 0;
ALTER TABLE search_changes ALTER COLUMN tx SET DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX search_changes_position ON search_changes (tx, seq);

CREATE TABLE registry_meta (
  id             integer PRIMARY KEY CHECK (id = 1),
  database_id    text NOT NULL,
  log_purged_tx  bigint NOT NULL,
  log_purged_seq bigint NOT NULL
);
INSERT INTO registry_meta (id, database_id, log_purged_tx, log_purged_seq)
  SELECT 1, gen_random_uuid()::text, 0, coalesce(min(seq) - 1, 0) FROM search_changes;
`;
