// The search index against an agent that writes unique words: what one unit, one agent and all of them add
// to the index is bounded, every unit stays findable by the words kept, and a full vocabulary is reported
// by /readyz instead of growing until the process dies (then again at every restart, while rebuilding).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ITEM_NEW_TERMS } from '../../src/search/registry-options.js';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeUnit, register, testApp, testConfig } from '../helpers/app.js';

/** Words no dictionary has: each one new to the index. */
const gibberish = (seed: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${seed}q${i.toString(36)}x`).join(' ');

describe('the search vocabulary under unique words', () => {
  it('bounds what one unit, one agent and everyone add; reports a full vocabulary; every unit stays findable by its title', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'), {
      config: testConfig({ searchVocabulary: { total: 2_000, perAgent: 600 } }),
    });
    try {
      const mallory = await register(t.app, 'mallory');
      const readyz = async () => (await call(t.app, 'GET', '/readyz')).json();
      const before = (await readyz()).search.vocabulary.units.terms;
      // 1,200 unique words in one unit: at most ITEM_NEW_TERMS of them enter the vocabulary.
      await contributeUnit(t.app, mallory, {
        title: 'Spam one',
        content: { description: gibberish('a', 1_200), examples: [] },
      });
      let units = (await readyz()).search.vocabulary.units;
      assert.ok(units.terms - before <= ITEM_NEW_TERMS + 2, `${units.terms - before} new words from one unit`);
      assert.equal(units.items_cut, 1);
      for (let i = 0; i < 5; i++)
        await contributeUnit(t.app, mallory, {
          title: `Spam ${i}`,
          content: { description: gibberish(`b${i}`, 300), examples: [] },
        });
      units = (await readyz()).search.vocabulary.units;
      assert.ok(units.terms <= before + 600 + 10, `one agent brought ${units.terms - before} words, its bound is 600`);
      assert.equal(units.full, false);

      // Other agents still add their words, until everyone together fills the vocabulary.
      const alice = await register(t.app, 'alice');
      await contributeUnit(t.app, alice, {
        title: 'Kubernetes operators reconcile state',
        content: { description: 'Controllers that reconcile.', examples: [] },
      });
      const search = async (q: string) =>
        (await call(t.app, 'GET', `/v1/knowledge?q=${encodeURIComponent(q)}`))
          .json()
          .data.map((u: { title: string }) => u.title);
      assert.deepEqual(await search('kubernetes operators'), ['Kubernetes operators reconcile state']);
      for (let a = 0; a < 4; a++) {
        const key = await register(t.app, `filler-${a}`);
        for (let i = 0; i < 3; i++)
          await contributeUnit(t.app, key, {
            title: `Filler ${a} ${i}`,
            content: { description: gibberish(`c${a}-${i}`, 250), examples: [] },
          });
      }
      const ready = await readyz();
      assert.equal(ready.status, 'ready');
      assert.equal(ready.search.vocabulary.units.full, 'terms');
      assert.equal(ready.search.vocabulary.units.terms, 2_000);
      assert.ok(
        ready.warnings.some((w: string) => /unit vocabulary is full/.test(w)),
        JSON.stringify(ready.warnings),
      );
      // Known words still index new units; their new words do not.
      await contributeUnit(t.app, alice, {
        title: 'Operators for Postgres',
        content: { description: 'Zyzzyva.', examples: [] },
      });
      assert.deepEqual((await search('operators')).sort(), [
        'Kubernetes operators reconcile state',
        'Operators for Postgres',
      ]);
      assert.deepEqual(await search('zyzzyva'), []);
      assert.deepEqual((await search('spam')).sort(), ['Spam 0', 'Spam 1', 'Spam 2', 'Spam 3', 'Spam 4', 'Spam one']);

      // A restart rebuilds the same vocabulary under the same bounds; one with no memory to spare builds
      // without new words, and says why, rather than dying.
      const vocabulary = { total: 2_000, perAgent: 600 };
      const rebuilt = new RegistrySearch(t.store, { embeddings: { kind: 'none' }, vocabulary });
      const starved = new RegistrySearch(t.store, { embeddings: { kind: 'none' }, vocabulary, memoryFull: () => true });
      try {
        rebuilt.start();
        starved.start();
        await Promise.all([rebuilt.ready, starved.ready]);
        const [r, s] = [(await rebuilt.status()).vocabulary.unit, (await starved.status()).vocabulary.unit];
        assert.equal(r.terms, 2_000);
        assert.equal(r.full, 'terms');
        assert.deepEqual([s.terms, s.full], [0, 'memory']);
        assert.equal((await starved.status()).ready, true);
      } finally {
        await rebuilt.close();
        await starved.close();
      }
    } finally {
      await t.close();
    }
  });
});
