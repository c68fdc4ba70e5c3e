// Before each search the index follows the change log: with nothing new in it, that is one small query (its
// bounds), and the changes themselves are read only when there are some.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { contributeUnit, register, testApp } from '../helpers/app.js';

test('a search reads the change log only when it holds something new', async () => {
  const t = await testApp(openSqliteStore('sqlite::memory:'));
  let reads = 0;
  const feed = Object.create(t.store) as Store;
  feed.searchChanges = (after, limit) => (reads++, t.store.searchChanges(after, limit));
  const search = new RegistrySearch(feed, { embeddings: { kind: 'none' } });
  try {
    const key = await register(t.app, 'alice');
    await contributeUnit(t.app, key, { title: 'Zebra crossing survey' });
    search.start();
    await search.ready;
    const before = reads;
    for (let i = 0; i < 3; i++) assert.equal((await search.search('unit', 'zebra', null, 10, 0))!.total, 1);
    assert.equal(reads, before, 'nothing new: the changes are not read');
    await contributeUnit(t.app, key, { title: 'Zebra migration routes' });
    assert.equal((await search.search('unit', 'zebra', null, 10, 0))!.total, 2);
    assert.equal(reads, before + 1);
  } finally {
    await search.close();
    await t.close();
  }
});
