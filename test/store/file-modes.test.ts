// The registry's files hold private skills' text and secrets, so they are the owner's alone (files 0600,
// folders 0700) even when the process runs under a permissive umask (022): the database with its -wal and
// -shm, a backup while it is written and once in place, a restore, and the search snapshot.
import assert from 'node:assert/strict';
import fs, { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { backupSqlite, restoreSqlite } from '../../src/store/backup.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { SnapshotWriter } from '../../src/search/snapshot-file.js';
import { register, testApp } from '../helpers/app.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A database with a write in its WAL, closed: the file a backup is taken of. */
async function databaseWithAWrite(file: string): Promise<void> {
  const t = await testApp(openSqliteStore(`sqlite:${file}`));
  await register(t.app, 'modes');
  await t.close();
}

/**
 * The modes files ending in `suffix` have whenever the code under test renames or chmods one (a partial
 * backup or restore is renamed into place once whole): the modes it had while it was written.
 */
function watchModes(suffix: string): { modes: string[]; stop(): void } {
  const modes: string[] = [];
  const original = { renameSync: fs.renameSync, chmodSync: fs.chmodSync };
  const note = (path: fs.PathLike) => {
    if (String(path).endsWith(suffix) && existsSync(path)) modes.push(modeOf(String(path)));
  };
  fs.renameSync = (from, to) => (note(from), original.renameSync(from, to));
  fs.chmodSync = (path, mode) => (note(path), original.chmodSync(path, mode));
  syncBuiltinESMExports();
  return {
    modes,
    stop() {
      Object.assign(fs, original);
      syncBuiltinESMExports();
    },
  };
}

describe('file modes under a permissive umask', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-modes-'));
  let umask: number;
  before(() => (umask = process.umask(0o022)));
  after(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the database, its -wal and -shm 0600, in a folder 0700 when it makes the folder', async () => {
    const file = join(dir, 'data', 'registry.db');
    const t = await testApp(openSqliteStore(`sqlite:${file}`));
    try {
      await register(t.app, 'modes');
      assert.equal(modeOf(file), '600');
      assert.equal(modeOf(`${file}-wal`), '600');
      assert.equal(modeOf(`${file}-shm`), '600');
      assert.equal(modeOf(join(dir, 'data')), '700');
    } finally {
      await t.close();
    }
  });

  it('takes group and other permissions away from a database an earlier version left 0644', async () => {
    const file = join(dir, 'earlier', 'registry.db');
    await databaseWithAWrite(file);
    fs.chmodSync(file, 0o644);
    const t = await testApp(openSqliteStore(`sqlite:${file}`));
    try {
      await register(t.app, 'again');
      for (const path of [file, `${file}-wal`, `${file}-shm`]) assert.equal(modeOf(path), '600', path);
    } finally {
      await t.close();
    }
  });

  it('keeps a backup 0600 while it is written and once in place, and its secret beside it', async () => {
    const source = join(dir, 'live', 'registry.db');
    await databaseWithAWrite(source);
    writeFileSync(`${source}.secret`, 'a secret of forty-eight bytes, more or less here', { mode: 0o600 });
    const target = join(dir, 'backups', 'registry.db');
    const watched = watchModes('.partial');
    try {
      backupSqlite(source, target);
    } finally {
      watched.stop();
    }
    assert.ok(watched.modes.length > 0, 'the partial backup was seen');
    assert.deepEqual(new Set(watched.modes), new Set(['600']), 'the partial backup, whole, before it is in place');
    assert.equal(modeOf(target), '600');
    assert.equal(modeOf(`${target}.secret`), '600');
    assert.equal(modeOf(join(dir, 'backups')), '700');
  });

  it('restores a backup an earlier version left 0644 through a copy that is 0600 from its first byte', async () => {
    const backup = join(dir, 'old-backup.db');
    await databaseWithAWrite(backup);
    fs.chmodSync(backup, 0o644);
    const target = join(dir, 'restored', 'registry.db');
    const watched = watchModes('.restoring');
    try {
      restoreSqlite(backup, target);
    } finally {
      watched.stop();
    }
    assert.ok(watched.modes.length > 0, 'the copy was seen');
    assert.deepEqual(new Set(watched.modes), new Set(['600']));
    assert.equal(modeOf(target), '600');
    assert.equal(modeOf(join(dir, 'restored')), '700');
  });

  it('writes the search snapshot 0600 in a folder 0700, also over a leftover temporary file', async () => {
    const path = join(dir, 'registry.db.search', 'index.snapshot');
    fs.mkdirSync(join(dir, 'leftover'), { mode: 0o755 });
    const leftover = join(dir, 'leftover', 'index.snapshot');
    writeFileSync(`${leftover}.${process.pid}.tmp`, 'half a snapshot', { mode: 0o644 });
    for (const file of [path, leftover]) {
      const out = await SnapshotWriter.create(file);
      await out.json({ words: ['private'] });
      await out.commit();
      assert.equal(modeOf(file), '600', file);
    }
    assert.equal(modeOf(join(dir, 'registry.db.search')), '700');
  });
});
