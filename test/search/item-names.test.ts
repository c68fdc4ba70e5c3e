import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextTable } from '../../src/search/text-table.js';
import { ItemNames } from '../../src/search/item-names.js';

// Few distinct texts (so that they repeat, are dropped and come back), some of them not ASCII.
const text = fc.integer({ min: 0, max: 60 }).map((i) => (i % 7 === 0 ? `né${i}日本` : `name${i}`.repeat(1 + (i % 5))));

test('the text table answers as a map of texts with use counts, through drops, reuse and growth', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), text), { maxLength: 600 }), (steps) => {
      const table = new TextTable();
      const uses = new Map<string, number>();
      const ids = new Map<string, number>();
      for (const [add, t] of steps) {
        if (add || !uses.has(t)) {
          const id = table.add(t);
          if (uses.has(t)) assert.equal(id, ids.get(t));
          ids.set(t, id);
          uses.set(t, (uses.get(t) ?? 0) + 1);
        } else {
          table.release(ids.get(t)!);
          const n = uses.get(t)! - 1;
          if (n === 0) uses.delete(t);
          else uses.set(t, n);
        }
        assert.equal(table.size, uses.size);
      }
      for (let i = 0; i <= 60; i++)
        for (const t of [`né${i}日本`, `name${i}`.repeat(1 + (i % 5))]) {
          const id = table.id(t);
          assert.equal(id >= 0, uses.has(t), t);
          if (id >= 0) {
            assert.equal(table.text(id), t);
            assert.equal(table.uses(id), uses.get(t));
          }
        }
    }),
  );
});

test('many distinct texts: each found again and its bytes reclaimed once dropped', () => {
  const table = new TextTable();
  const ids = Array.from({ length: 50_000 }, (_, i) => table.add(`item-name-${i}`));
  for (let i = 0; i < 50_000; i += 2) table.release(ids[i]!);
  const before = table.byteLength;
  for (let i = 0; i < 50_000; i++) table.add(`other-${i}`);
  assert.equal(table.size, 75_000);
  for (let i = 1; i < 50_000; i += 2) assert.equal(table.text(table.id(`item-name-${i}`)), `item-name-${i}`);
  assert.equal(table.id('item-name-0'), -1);
  assert.ok(table.byteLength < 2.5 * before, 'ids and bytes of dropped texts are reused');
});

test('items by ordinal and by name follow additions and removals in the order they were recorded', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('', 'a', 'b', 'c', 'dé')), { maxLength: 300 }),
      (steps) => {
        const names = new ItemNames();
        const model = new Map<number, string>();
        let next = 0;
        const byOrd = new Map<number, number>();
        for (const [item, name] of steps) {
          // An item is recorded at a new ordinal each time it changes (as the lexical index gives them).
          const old = byOrd.get(item);
          if (old !== undefined) {
            names.forget(old);
            model.delete(old);
            byOrd.delete(item);
            if (name === 'c') continue;
          }
          const ord = next++;
          const descSet = name === 'a' ? ['alpha', 'beta'] : [];
          names.set(ord, { nameKey: name, nameTerms: name ? [name, name] : [], descSet });
          model.set(ord, name);
          byOrd.set(item, ord);
        }
        for (let ord = 0; ord < next; ord++) {
          const info = names.info(ord);
          assert.equal(names.has(ord), model.has(ord));
          if (!model.has(ord)) continue;
          const name = model.get(ord)!;
          assert.deepEqual(info, {
            nameKey: name,
            nameTerms: name ? [name, name] : [],
            descSet: name === 'a' ? ['alpha', 'beta'] : [],
          });
        }
        for (const name of ['a', 'b', 'c', 'dé'])
          assert.deepEqual(
            names.named(name),
            [...model].filter(([, n]) => n === name).map(([ord]) => ord),
          );
        assert.deepEqual(names.named(''), []);
      },
    ),
  );
});
