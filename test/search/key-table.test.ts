import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KeyTable } from '../../src/search/key-table.js';

test('a key table answers as a Map: dense sequences in the array, any other key beside', () => {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 2 ** 26 - 2, max: 2 ** 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: -1 }) },
    { weight: 1, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) },
  );
  const op = fc.oneof(
    fc.record({ set: key, value: fc.integer({ min: 0, max: 2 ** 31 - 2 }) }),
    fc.record({ del: key }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
      const table = new KeyTable();
      const map = new Map<number, number>();
      for (const o of ops) {
        if ('del' in o) assert.equal(table.delete(o.del), map.delete(o.del));
        else {
          table.set(o.set, o.value);
          map.set(o.set, o.value);
        }
        assert.equal(table.size, map.size);
      }
      for (const [k, v] of map) assert.equal(table.get(k), v);
      for (const o of ops) {
        const k = 'del' in o ? o.del : o.set;
        assert.equal(table.has(k), map.has(k));
      }
      assert.deepEqual(new Map(table.entries()), map);
    }),
    { numRuns: 200 },
  );
});

test('a million dense keys cost about four bytes each', () => {
  const table = new KeyTable();
  for (let k = 1; k <= 1_000_000; k++) table.set(k, k - 1);
  assert.equal(table.size, 1_000_000);
  assert.equal(table.get(777_777), 777_776);
  assert.ok(table.byteLength <= 8 * 1_000_000, `${table.byteLength} bytes`);
});
