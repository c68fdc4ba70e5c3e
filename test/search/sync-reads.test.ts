// Before each search the index follows the change log: with nothing new in it, that is one small query (its
// bounds), and the changes themselves are read only when there are some.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noEmbeddings } from '../../src/search/embeddings/provider.js';
import type { IndexFeed, SearchItem } from '../../src/search/feed.js';
import { UNBOUNDED_TERMS } from '../../src/search/lexical.js';
import { KindIndex } from '../../src/search/registry-index.js';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { applyChangeBatch } from '../../src/search/registry-sync.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { contributeUnit, register, testApp } from '../helpers/app.js';

test('a search asks the change log one query, and applies a change once', async () => {
  const t = await testApp(openSqliteStore('sqlite::memory:'));
  let reads = 0;
  let applied = 0;
  const feed = Object.create(t.store) as Store;
  feed.searchChanges = (after, limit, through) => (reads++, t.store.searchChanges(after, limit, through));
  feed.searchItemsBySeq = (kind, seqs) => ((applied += seqs.length), t.store.searchItemsBySeq(kind, seqs));
  const search = new RegistrySearch(feed, { embeddings: { kind: 'none' } });
  try {
    const key = await register(t.app, 'alice');
    await contributeUnit(t.app, key, { title: 'Zebra crossing survey' });
    search.start();
    await search.ready;
    const before = reads;
    for (let i = 0; i < 3; i++) assert.equal((await search.search('unit', 'zebra', null, 10, 0))!.total, 1);
    assert.equal(reads, before + 3, 'nothing new: one query a search');
    const appliedBefore = applied;
    await contributeUnit(t.app, key, { title: 'Zebra migration routes' });
    assert.equal((await search.search('unit', 'zebra', null, 10, 0))!.total, 2);
    assert.equal(reads, before + 4, 'a change settled at once on SQLite: still one query');
    assert.equal((await search.search('unit', 'zebra', null, 10, 0))!.total, 2);
    assert.equal(applied, appliedBefore + 1, 'the change is applied once');
  } finally {
    await search.close();
    await t.close();
  }
});

test('a batch of changes reads its items a part at a time, drops the ones gone and indexes the rest', async () => {
  const index = new KindIndex('unit', noEmbeddings, { limits: UNBOUNDED_TERMS, memoryFull: () => false });
  const item = (seq: number): SearchItem => ({
    kind: 'unit',
    held: false,
    seq,
    id: `ku_${seq}`,
    agentId: 'a',
    name: `walrus ${seq}`,
    description: 'about walruses',
    tags: [],
    domain: 'd',
    body: '',
    qualityScore: 0.5,
    createdAt: '2026-01-01T00:00:00.000Z',
    type: 'pattern',
  });
  for (let seq = 1; seq <= 450; seq++) index.put(item(seq));
  const reads: number[] = [];
  // Every third item is gone from the store; the others come back as they are.
  const feed = {
    searchItemsBySeq: async (_kind: string, seqs: readonly number[]) => {
      reads.push(seqs.length);
      return seqs.filter((seq) => seq % 3 !== 0).map(item);
    },
  } as unknown as IndexFeed;
  const changes = Array.from({ length: 450 }, (_, i) => ({ tx: 0, seq: i + 1, kind: 'unit' as const, itemSeq: i + 1 }));
  const heard: number[] = [];
  await applyChangeBatch(
    feed,
    () => ({ unit: index, skill: index }),
    changes,
    [(_k, seqs) => heard.push(seqs?.length ?? -1)],
    () => {},
  );
  assert.deepEqual(reads, [200, 200, 50], 'no read of more than 200 items on the event loop');
  assert.deepEqual(heard, [450], 'listeners hear the whole batch at once');
  assert.equal(index.attributes.size, 300);
  assert.equal(index.attributes.has(3), false);
  assert.equal(index.attributes.has(449), true);
});
