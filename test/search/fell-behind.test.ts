// An instance whose index fell behind the change log (the changes it missed were purged) rebuilds its
// index from the store, and answers with what was written meanwhile.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { contributeUnit, register, testApp } from '../helpers/app.js';

test(
  'an index behind the change log rebuilds from the store and finds what it missed',
  { timeout: 20_000 },
  async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    const search = new RegistrySearch(t.store, { embeddings: { kind: 'none' } });
    try {
      const key = await register(t.app, 'alice');
      await contributeUnit(t.app, key, { title: 'Kubernetes operators reconcile state' });
      search.start();
      await search.ready;
      await search.sync();
      for (let i = 0; i < 3; i++) await contributeUnit(t.app, key, { title: `Zebra crossing number ${i}` });
      // Everything this index has not applied yet is purged from the log.
      await t.store.purgeSearchChanges(1);
      const status = await search.status();
      assert.equal(status.ready, true);
      assert.equal((await search.search('unit', 'zebra', null, 10, 0))!.total, 3);
      assert.equal((await search.search('unit', 'kubernetes', null, 10, 0))!.total, 1);
    } finally {
      await search.close();
      await t.close();
    }
  },
);
