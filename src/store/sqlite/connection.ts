// The SQLite connection: the file, its pragmas, the migration runner, statements prepared once, and the
// room left on the disk that holds the file.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import { createPrivateFile, makePrivateFolder, tightenIfOwned } from '../private-files.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

/** `sqlite:<path>` or `sqlite::memory:` → the file name better-sqlite3 takes. */
export function sqliteFilename(url: string): string {
  const rest = url.replace(/^sqlite:/, '');
  return rest === ':memory:' || rest === '' ? ':memory:' : rest;
}

/** Below this much free disk the store says it is not ready: SQLite needs room for the WAL and temp files. */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** Free bytes on the disk holding `directory` (the database's), for the store's readiness check. */
export function freeBytesOn(directory: string): number {
  const stats = statfsSync(directory);
  return stats.bavail * stats.bsize;
}

/** Prepares a statement once per text and keeps it, including each shape of a list query. */
export type Prepare = (sql: string) => Statement;

export function statementCache(db: Db): Prepare {
  const cache = new Map<string, Statement>();
  return (sql) => {
    const statement = cache.get(sql) ?? db.prepare(sql);
    cache.set(sql, statement);
    return statement;
  };
}

/** How long a connection waits for another's lock before it answers busy. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the writer's connection: a file the owner's alone, WAL, durable commits, deleted content
 * overwritten, foreign keys, migrations applied.
 */
export function openWriter(filename: string, cacheKib: number): Db {
  if (filename !== ':memory:') {
    // SQLite would create the file 0644 (less the umask), and its -wal and -shm take the file's mode.
    makePrivateFolder(dirname(filename));
    createPrivateFile(filename);
    for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) tightenIfOwned(file);
  }
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the client hears 2xx, so acknowledged writes survive even power loss.
  db.pragma('synchronous = FULL');
  // What a deletion frees is overwritten with zeros, so a deleted unit's or skill's text does not stay in
  // free pages of the file (erasure.ts then checkpoints it out of the WAL).
  db.pragma('secure_delete = ON');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // A page cache larger than SQLite's 2 MiB default: the indexes of the filtered lists and the rows of
  // gets stay in it instead of costing a system call a page.
  db.pragma(`cache_size = -${cacheKib}`);
  migrate(db);
  return db;
}

/** A read-only connection (a read worker's), beside the writer's. */
export function openReader(filename: string, cacheKib: number): Db {
  const db = new Database(filename, { readonly: true, fileMustExist: true });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${cacheKib}`);
  return db;
}

/** Applies the migrations not yet recorded, in order, each in its own transaction. */
export function migrate(db: Db, migrations: Migration[] = allMigrations): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    // IMMEDIATE: a second process starting at the same moment waits instead of applying it twice.
    db.transaction(() => {
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version)) return;
      db.exec(migration.sql);
      migration.backfill?.(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
