// While the search index loads, the instance says so: /readyz answers 503 with how far the index is,
// searches answer 503, and everything else (/healthz, reads, writes) is served at once. Once loaded, the
// index has every item, including those written while it loaded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeUnit, register, testApp } from '../helpers/app.js';

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

describe('a registry whose search index is loading', () => {
  it('is alive but not ready, refuses searches only, and is ready once the index is loaded', async () => {
    const first = await testApp(openSqliteStore('sqlite::memory:'));
    const key = await register(first.app, 'alice');
    for (let i = 0; i < 30; i++) await contributeUnit(first.app, key, { title: `Backoff pattern number ${i}` });
    await first.app.close();
    const { store, open } = gated(first.store);
    const t = await testApp(store, { awaitSearchIndex: false });
    try {
      const ready = await call(t.app, 'GET', '/readyz');
      assert.equal(ready.statusCode, 503);
      assert.match(ready.json().error.message, /^search index loading: 0% \(0 of 30\)$/);
      assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200);
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?limit=5')).statusCode, 200, 'lists without q are served');
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?q=backoff')).statusCode, 503);
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
});
