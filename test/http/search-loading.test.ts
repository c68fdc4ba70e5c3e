// While the search index loads, the instance says so: /readyz answers 503 with how far the index is, a
// search waits for the index (within REG_SEARCH_START_WAIT_S, then 503), and everything else (/healthz,
// reads, writes) is served at once. Once loaded, the index has every item, including those written while it
// loaded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeUnit, register, testApp, testConfig } from '../helpers/app.js';

/** The store, except that reading items for the index waits until `open()` is called. */
function gated(store: Store) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'searchItems')
        return async (...args: Parameters<Store['searchItems']>) => (await gate, target.searchItems(...args));
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, open };
}

/** A registry of 30 units whose index is loading until `open()`; `waitMs`: REG_SEARCH_START_WAIT_S in ms. */
async function loading(waitMs: number) {
  const first = await testApp(openSqliteStore('sqlite::memory:'));
  const key = await register(first.app, 'alice');
  for (let i = 0; i < 30; i++) await contributeUnit(first.app, key, { title: `Backoff pattern number ${i}` });
  await first.app.close();
  const { store, open } = gated(first.store);
  const t = await testApp(store, { awaitSearchIndex: false, config: testConfig({ searchStartWaitMs: waitMs }) });
  return { t, key, open };
}

describe('a registry whose search index is loading', () => {
  it('is alive but not ready, serves everything but searches at once, and is ready once the index is loaded', async () => {
    const { t, key, open } = await loading(0);
    try {
      const ready = await call(t.app, 'GET', '/readyz');
      assert.equal(ready.statusCode, 503);
      assert.match(ready.json().error.message, /^search index loading: 0% \(0 of 30\)$/);
      assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200);
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?limit=5')).statusCode, 200, 'lists without q are served');
      const refused = await call(t.app, 'GET', '/v1/knowledge?q=backoff');
      assert.equal(refused.statusCode, 503, 'with no wait allowed, a search is refused');
      assert.equal(refused.json().error.code, 'UNAVAILABLE');
      assert.ok(refused.headers['retry-after'], 'a refusal says when to retry');
      await contributeUnit(t.app, key, { title: 'Written while loading' });
      open();
      let status = 503;
      for (let i = 0; i < 200 && status === 503; i++) {
        await new Promise((r) => setTimeout(r, 10));
        status = (await call(t.app, 'GET', '/readyz')).statusCode;
      }
      assert.equal(status, 200);
      const found = (await call(t.app, 'GET', '/v1/knowledge?q=backoff%20loading&limit=100')).json();
      assert.equal(found.total, 31);
    } finally {
      await t.close();
    }
  });

  it('holds a search that arrives meanwhile and answers it, with the whole index, once loaded', async () => {
    const { t, open } = await loading(20_000);
    try {
      let answered = false;
      const search = call(t.app, 'GET', '/v1/knowledge?q=backoff&limit=100').then((res) => ((answered = true), res));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(answered, false, 'the search waits while the index loads');
      assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200, 'and nothing else waits');
      open();
      const res = await search;
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().total, 30);
    } finally {
      await t.close();
    }
  });

  it('refuses a held search with 503 once the wait is over and the index is still loading', async () => {
    const { t, open } = await loading(300);
    try {
      const started = Date.now();
      const res = await call(t.app, 'GET', '/v1/knowledge?q=backoff');
      assert.equal(res.statusCode, 503);
      assert.match(res.json().error.message, /being built/);
      assert.ok(Date.now() - started >= 250, 'it waited first');
    } finally {
      open();
      await t.close();
    }
  });
});
