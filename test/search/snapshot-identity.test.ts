// A search snapshot belongs to the database it was taken of: one database never loads another's (its
// items would answer for the other's rows, private ones included), nor one taken of itself at a later
// point than a backup it was restored from; the restore command removes the snapshot it makes stale.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { skillListCondition } from '../../src/domain/lists.js';
import { backupSqlite } from '../../src/store/backup.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { call, contributeSkill, register, testApp } from '../helpers/app.js';

const dir = mkdtempSync(join(tmpdir(), 'kreg-snapshot-identity-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const anonymous = skillListCondition({ agentId: null, everything: false }, {});

async function withIndex<T>(
  store: Store,
  snapshotDir: string,
  work: (search: RegistrySearch, logs: string[]) => Promise<T>,
) {
  const logs: string[] = [];
  const log = { info: (_: object, m: string) => logs.push(m), warn: (_: object, m: string) => logs.push(`warn: ${m}`) };
  const search = new RegistrySearch(store, { embeddings: { kind: 'none' }, scoringWorkers: 0, snapshotDir, log });
  search.start();
  await search.ready;
  try {
    return await work(search, logs);
  } finally {
    await search.close();
  }
}
const names = async (search: RegistrySearch, q: string) =>
  (await search.search('skill', q, anonymous, 50, 0))!.seqs.length;

describe('a search snapshot and its database', () => {
  it('is not loaded over another database, whose items it would answer for', async () => {
    const x = join(dir, 'x.db');
    const y = join(dir, 'y.db');
    const snapshotDir = `${x}.search`;
    const onX = await testApp(openSqliteStore(`sqlite:${x}`));
    await contributeSkill(onX.app, await register(onX.app, 'carol'), {
      name: 'wallaby-tools',
      description: 'Wallaby counts.',
    });
    await withIndex(onX.store, snapshotDir, async (search) => assert.equal(await names(search, 'wallaby'), 1));
    await onX.close();
    assert.ok(existsSync(join(snapshotDir, 'index.snapshot')));

    // Another database, whose first skill is private, put in X's place (by hand: the snapshot stays).
    const onY = await testApp(openSqliteStore(`sqlite:${y}`));
    const dave = await register(onY.app, 'dave');
    await contributeSkill(onY.app, dave, { name: 'platypus-secrets', description: 'Private notes.' }, 'private');
    await onY.close();
    copyFileSync(y, x);
    for (const suffix of ['-wal', '-shm']) rmSync(`${x}${suffix}`, { force: true });

    const replaced = await testApp(openSqliteStore(`sqlite:${x}`));
    try {
      await withIndex(replaced.store, snapshotDir, async (search, logs) => {
        assert.ok(
          logs.some((m) => /snapshot does not match the database \(it was taken of another database\)/.test(m)),
          logs.join('\n'),
        );
        assert.equal(await names(search, 'wallaby'), 0, 'nothing of the other database is found');
        assert.equal(await names(search, 'platypus'), 0, 'the private skill stays private');
      });
      const listed = await call(replaced.app, 'GET', '/v1/skills?q=wallaby');
      assert.equal(listed.json().total, 0);
    } finally {
      await replaced.close();
    }
  });

  it('is not loaded over an older backup of its own database', async () => {
    const file = join(dir, 'z.db');
    const snapshotDir = `${file}.search`;
    const live = await testApp(openSqliteStore(`sqlite:${file}`));
    const erin = await register(live.app, 'erin');
    await contributeSkill(live.app, erin, { name: 'bilby-tools', description: 'Bilby tracks.' });
    const backup = join(dir, 'z-backup.db');
    backupSqlite(file, backup);
    // After the backup, the skill goes private, and the snapshot is taken of that later state.
    const skills = await call(live.app, 'GET', '/v1/skills?q=bilby', { key: erin });
    const id = skills.json().data[0].id as string;
    await contributeSkill(live.app, erin, { name: 'quoll-tools', description: 'Quoll tracks.' });
    assert.equal(
      (await call(live.app, 'POST', `/v1/skills/${id}/visibility`, { key: erin, body: { visibility: 'private' } }))
        .statusCode,
      200,
    );
    await withIndex(live.store, snapshotDir, async (search) => assert.equal(await names(search, 'bilby'), 0));
    await live.close();

    copyFileSync(backup, file);
    for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    const restored = await testApp(openSqliteStore(`sqlite:${file}`));
    try {
      await withIndex(restored.store, snapshotDir, async (search, logs) => {
        assert.ok(
          logs.some((m) => /the database is older than it/.test(m)),
          logs.join('\n'),
        );
        assert.equal(await names(search, 'bilby'), 1, 'the restored database says the skill is public');
        assert.equal(await names(search, 'quoll'), 0, 'and holds nothing published after the backup');
      });
    } finally {
      await restored.close();
    }
  });
});
