// The registry's files on disk (the database and its journal, backups, the instance secret, the search
// snapshots) hold private skills' text and secrets: they are the owner's alone (0600, folders 0700),
// whatever umask the process was started with.
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';

const OWNER_ONLY = 0o600;

/**
 * Files this process creates from now on are its owner's alone (umask 077): what SQLite creates itself
 * (journals, temporary files) included. The server and the operator commands call it first.
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

/** Makes a folder (and its parents) that only the owner may enter; an existing one is left as it is. */
export function makePrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
}

/**
 * Creates `path` empty with mode 0600 unless it exists (an empty file is a database SQLite accepts, and the
 * journal files it makes beside a database take the database's mode).
 */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', OWNER_ONLY));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Takes group and other permissions away from `path` when this process owns it (a database created by an
 * earlier version with 0644); a missing file, or one of another user, is left alone.
 */
export function tightenIfOwned(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return;
  }
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) chmodSync(path, stats.mode & 0o700);
}

/** Copies `from` into a new file `to` created 0600 (copyFile would give it `from`'s mode first), flushed. */
export function copyPrivately(from: string, to: string): void {
  const source = openSync(from, 'r');
  try {
    const target = openSync(to, 'wx', OWNER_ONLY);
    try {
      const buffer = Buffer.alloc(1024 * 1024);
      for (let read; (read = readSync(source, buffer, 0, buffer.length, null)) > 0;)
        for (let written = 0; written < read;) written += writeSync(target, buffer, written, read - written);
      fsyncSync(target);
    } finally {
      closeSync(target);
    }
  } finally {
    closeSync(source);
  }
}
