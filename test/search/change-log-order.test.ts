// Two instances on one PostgreSQL database, and a transaction that stays open while the other instance
// writes: its change is numbered before theirs but commits after them. No index may step past it, not while
// following the log and not while building, and nothing committed meanwhile waits for it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { skillListCondition } from '../../src/domain/lists.js';
import type { Store } from '../../src/store/store.js';
import { backends, postgresUrl, type SharedDatabase } from '../helpers/backends.js';
import { call, contributeSkill, register, testApp, type TestApp } from '../helpers/app.js';

const url = postgresUrl();
const anonymous = skillListCondition({ agentId: null, everything: false }, {});

describe(
  'the change log on PostgreSQL with two instances',
  { skip: url ? false : 'REG_TEST_DATABASE_URL is not set' },
  () => {
    let shared: SharedDatabase;
    let a: TestApp;
    let b: TestApp;
    const searches: RegistrySearch[] = [];
    let held: pg.Client;
    let schema: string;

    const index = async (store: Store) => {
      const search = new RegistrySearch(store, { embeddings: { kind: 'none' }, scoringWorkers: 0 });
      searches.push(search);
      search.start();
      await search.ready;
      return search;
    };
    const found = async (search: RegistrySearch, word: string) =>
      (await search.search('skill', word, anonymous, 50, 0))?.total ?? -1;

    before(async () => {
      const postgres = backends().find((backend) => backend.name === 'postgres')!;
      shared = await postgres.shared();
      a = await testApp(await shared.start());
      b = await testApp(await shared.start());
      schema = shared.schema!;
      held = new pg.Client({ connectionString: url });
      await held.connect();
      await held.query(`SET search_path TO ${schema}`);
    });
    after(async () => {
      await held?.end().catch(() => {});
      for (const search of searches) await search.close();
      await a?.close();
      await b?.close();
      await shared?.drop();
    });

    it('applies a change that commits after later-numbered ones, following and building alike', async () => {
      const carol = await register(a.app, 'carol');
      const hidden = await contributeSkill(a.app, carol, { name: 'quokka-tools', description: 'Quokka census tools.' });
      const onA = await index(a.store);
      const onB = await index(b.store);
      assert.equal(await found(onA, 'quokka'), 1);
      assert.equal(await found(onB, 'quokka'), 1);

      // A transaction makes the skill private and stays open: its change is numbered now.
      await held.query('BEGIN');
      await held.query(`UPDATE skills SET visibility = 'private' WHERE id = $1`, [hidden.id]);
      // Meanwhile the other instance publishes, and both indexes follow the log past that number.
      for (let i = 0; i < 5; i++)
        await contributeSkill(b.app, carol, { name: `wombat-${i}`, description: `Wombat burrow survey ${i}.` });
      assert.equal(await found(onA, 'wombat'), 5, 'what committed meanwhile is searchable at once');
      assert.equal(await found(onB, 'wombat'), 5);
      // An index built now, while the transaction is open, reads the skill as it still is.
      const built = await index(b.store);
      assert.equal(await found(built, 'quokka'), 1);

      await held.query('COMMIT');
      for (const search of [onA, onB, built]) {
        assert.equal(await found(search, 'quokka'), 0, 'the late change is applied: the skill is private');
        assert.equal(await found(search, 'wombat'), 5);
      }
      for (const app of [a.app, b.app]) {
        const listed = await call(app, 'GET', '/v1/skills?q=quokka');
        assert.equal(listed.json().total, 0);
      }
    });

    it('settles no further than the oldest transaction still running, then catches up', async () => {
      const carol = await register(a.app, 'dave');
      const onA = await index(a.store);
      await held.query('BEGIN');
      await held.query(`UPDATE skills SET visibility = 'private' WHERE name LIKE 'wombat-%'`);
      await contributeSkill(b.app, carol, { name: 'numbat-tools', description: 'Numbat tools.' });
      assert.equal(await found(onA, 'numbat'), 1);
      const { tx: horizon } = await a.store.changeLogStart();
      const settledWhileOpen = cursorOf(onA);
      assert.ok(settledWhileOpen.tx <= horizon, 'not past the open transaction');
      await held.query('ROLLBACK');
      assert.equal(await found(onA, 'wombat'), 5, 'a rolled-back change leaves the skills as they were');
      await found(onA, 'numbat');
      assert.ok(
        cursorOf(onA).tx > settledWhileOpen.tx || cursorOf(onA).seq > settledWhileOpen.seq,
        'settled once it ended',
      );
    });

    it('takes a log written by another cluster (a restored dump) as settled history, under a new identity', async () => {
      const { database } = await a.store.changeLogState();
      // Transaction ids this cluster has not reached yet, as a dump from a busier cluster carries them.
      await held.query('UPDATE search_changes SET tx = tx + 1000000000000');
      const reopened = await shared.start();
      try {
        const state = await reopened.changeLogState();
        assert.notEqual(state.database, database, 'a new identity: every index rebuilds');
        assert.equal(state.last.tx, 0, 'the old changes read first, in number order');
        const carol = await register(a.app, 'frank');
        await contributeSkill(a.app, carol, { name: 'bandicoot-tools', description: 'Bandicoot tools.' });
        const { changes } = await reopened.searchChanges(state.last, 10);
        assert.ok(changes.length > 0 && changes.every((c) => c.tx > 0), 'a new change sorts after them');
      } finally {
        await reopened.close();
      }
    });
  },
);

/** The settled position of an index (read through its private field: a figure only this test needs). */
function cursorOf(search: RegistrySearch): { tx: number; seq: number } {
  return (search as unknown as { cursor: { settled: { tx: number; seq: number } } }).cursor.settled;
}
