// The SQLite read pool: lists in worker threads, bounded, and closed cleanly.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReadPool } from '../../src/store/sqlite/read-pool.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { StoreUnavailableError } from '../../src/store/store.js';
import { unitQuery, type UnitFilters } from '../helpers/lists.js';

type UnitSpec = UnitFilters & { types: string[]; limit: number; offset: number };

describe('SQLite read pool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'read-pool-'));
  const filename = join(dir, 'pool.db');
  const query: UnitSpec = { types: [], limit: 5, offset: 0 };
  before(async () => {
    const store = openSqliteStore(`sqlite:${filename}`); // creates the schema
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses reads beyond its waiting bound as unavailable, and answers the rest', async () => {
    const pool = new ReadPool({ filename, cacheKib: 1024 }, { workers: 1, maxWaiting: 3 });
    try {
      const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => pool.listUnits(unitQuery(query))));
      const refused = outcomes.filter((o) => o.status === 'rejected');
      assert.equal(outcomes.length - refused.length, 4, 'one runs, three wait');
      for (const o of refused) assert.ok(o.reason instanceof StoreUnavailableError);
      for (const o of outcomes) if (o.status === 'fulfilled') assert.deepEqual(o.value, { items: [], total: 0 });
    } finally {
      await pool.close();
    }
  });

  it('reports a failing query to its caller only, and keeps serving', async () => {
    const pool = new ReadPool({ filename, cacheKib: 1024 }, { workers: 1, maxWaiting: 8 });
    try {
      const broken = pool.listUnits(unitQuery({ ...query, limit: -1, offset: Number.NaN }));
      const fine = pool.listUnits(unitQuery(query));
      await assert.rejects(broken, /list failed/);
      assert.deepEqual(await fine, { items: [], total: 0 });
    } finally {
      await pool.close();
    }
    await assert.rejects(pool.listUnits(unitQuery(query)), StoreUnavailableError, 'a closed pool refuses');
  });
});
