// Migration 12: what is the database's own, as PostgreSQL's migration 11 keeps it: an identity drawn once
// (a search snapshot is tied to it, so one database never loads another's) and how far the change log has
// been purged (a reader behind it rebuilds). SQLite commits one write transaction at a time, in the order
// its changes were numbered, so its log needs no transaction column: every change it shows is settled.
// Never edit a migration that has shipped: add the next number.
export const name = 'database identity and change log purge mark';

export const sql = `
CREATE TABLE registry_meta (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  database_id    TEXT NOT NULL,
  log_purged_tx  INTEGER NOT NULL,
  log_purged_seq INTEGER NOT NULL
);
INSERT INTO registry_meta (id, database_id, log_purged_tx, log_purged_seq)
  SELECT 1, lower(hex(randomblob(16))), 0, coalesce(min(seq) - 1, 0) FROM search_changes;
`;
