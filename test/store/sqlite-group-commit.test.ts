// Group commit on SQLite: writes queued together share one transaction, each in its own savepoint.
// An op that fails alone fails alone; a failure that takes the whole transaction down fails them all,
// and nothing of the group is committed, so no caller is told "failed" about a write that is on disk.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { KnowledgeUnit } from '../../src/domain/model.js';
import { GroupCommit } from '../../src/store/sqlite/group-commit.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { StoreUnavailableError, type Store } from '../../src/store/store.js';
import { unitRecord } from '../helpers/records.js';

const unit = (overrides: Partial<KnowledgeUnit> = {}) => unitRecord('writer', 'group', overrides);

describe('SQLite group commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  let store: Store;
  let db: Database;
  const count = () => db.prepare('SELECT count(*) FROM knowledge_units').pluck().get() as number;

  before(async () => {
    store = openSqliteStore(`sqlite:${join(dir, 'group.db')}`, { onConnection: (connection) => (db = connection) });
    await store.createAgentWithKey({
      agentId: 'writer',
      keyHash: 'a'.repeat(64),
      keyPrefix: 'reg_grp1',
      scopes: ['write'],
      tier: 'free',
      createdAt: unit().created_at,
    });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails only the op that fails, and commits the others of its group', async () => {
    const first = unit();
    const before = count();
    // Queued in one turn of the event loop: one group. The second reuses the first's id.
    const outcomes = await Promise.allSettled([
      store.contributeUnit(first, 0.5, 200),
      store.contributeUnit(unit({ id: first.id }), 0.5, 200),
      store.contributeUnit(unit(), 0.5, 200),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(count(), before + 2);
    const profile = await store.reputation('writer', 10);
    assert.equal(profile?.contributions, before + 2, 'the failed op earned nothing');
  });

  it('answers a full database with StoreUnavailableError (503) for the op that hit it', async () => {
    const before = count();
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 2}`);
    try {
      const big = 'x'.repeat(20_000);
      const outcomes = await Promise.allSettled([
        store.contributeUnit(unit(), 0.5, 200),
        store.contributeUnit(unit({ content: { description: big, examples: [big, big, big] } }), 0.5, 200),
      ]);
      assert.equal(outcomes[0]!.status, 'fulfilled');
      assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof StoreUnavailableError);
      assert.equal(count(), before + 1);
    } finally {
      db.pragma('max_page_count = 4294967294');
    }
  });

  it('fails the whole group, and commits none of it, when an op takes the transaction down', async () => {
    // What SQLite may do on an I/O error or a full disk: roll back the whole transaction, not the savepoint.
    const scratch = new BetterSqlite3(join(dir, 'scratch.db'));
    scratch.exec('CREATE TABLE t (n INTEGER)');
    const commits = new GroupCommit(scratch);
    const rows = () => scratch.prepare('SELECT count(*) FROM t').pluck().get() as number;
    const insert = () => commits.write(() => scratch.prepare('INSERT INTO t VALUES (1)').run());
    try {
      const outcomes = await Promise.allSettled([
        insert(),
        commits.write(() => {
          scratch.exec('ROLLBACK');
          throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        }),
        insert(),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected', 'rejected'],
      );
      for (const o of outcomes) assert.ok((o as PromiseRejectedResult).reason instanceof StoreUnavailableError);
      assert.equal(rows(), 0, 'nothing of the group is on disk');
      await insert();
      assert.equal(rows(), 1, 'the next group commits');
    } finally {
      scratch.close();
    }
  });
});
