// Backups of a SQLite registry, taken while it serves, and their restore. A backup is one consistent
// snapshot (VACUUM INTO reads the database in a single transaction, so every write acknowledged before
// it began is in it, and none half-written), checked, then moved into place; the instance secret that
// seals idempotent replays travels beside it. PostgreSQL is backed up with pg_dump (docs/operations.md).
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { copyPrivately, createPrivateFile, makePrivateFolder } from './private-files.js';

export interface BackupResult {
  file: string;
  bytes: number;
  /** The instance secret's copy, when the database had one beside it. */
  secret: string | null;
}

const secretOf = (file: string) => `${file}.secret`;

/** Refuses a file that is not a whole, sound SQLite database of the registry (one line saying why). */
function assertSound(file: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the integrity check says: ${String(check)}`);
    db.prepare('SELECT count(*) FROM agents').get();
  } catch (error) {
    throw new Error(`${file} is not a sound registry database: ${(error as Error).message}`, { cause: error });
  } finally {
    db?.close();
  }
}

function copySecret(from: string, to: string): string | null {
  if (!existsSync(from)) return null;
  const partial = `${to}.partial`;
  rmSync(partial, { force: true });
  copyPrivately(from, partial);
  renameSync(partial, to);
  return to;
}

/** Takes a consistent backup of the database `source` into `target` (never overwriting one). */
export function backupSqlite(source: string, target: string): BackupResult {
  if (!existsSync(source)) throw new Error(`there is no database at ${source}`);
  if (existsSync(target)) throw new Error(`${target} exists already; choose another name`);
  const partial = `${target}.partial`;
  makePrivateFolder(dirname(target));
  rmSync(partial, { force: true });
  // Made 0600 before the copy begins (VACUUM INTO fills an empty file, and would create one 0644).
  createPrivateFile(partial);
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(partial);
  } finally {
    db.close();
  }
  try {
    assertSound(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, target);
  return { file: target, bytes: statSync(target).size, secret: copySecret(secretOf(source), secretOf(target)) };
}

/**
 * Puts the backup `backup` in place of the database `target` (the registry must be stopped): the backup
 * is checked first, copied beside the target, and renamed over it, so a failure leaves the old one.
 */
export function restoreSqlite(backup: string, target: string, options: { force?: boolean } = {}): BackupResult {
  assertSound(backup);
  if (existsSync(target) && !options.force)
    throw new Error(`a database exists at ${target}; stop the registry and pass --force to replace it`);
  const partial = `${target}.restoring`;
  makePrivateFolder(dirname(target));
  rmSync(partial, { force: true });
  copyPrivately(backup, partial);
  // The old database's write-ahead log belongs to the old file: left beside the new one it would be replayed into it.
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(partial, target);
  return { file: target, bytes: statSync(target).size, secret: copySecret(secretOf(backup), secretOf(target)) };
}
