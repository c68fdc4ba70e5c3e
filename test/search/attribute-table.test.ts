import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AttributeTable } from '../../src/search/attribute-table.js';
import type { Attributes } from '../../src/search/attribute-row.js';
import { matches, type FilterValues } from '../../src/domain/filters.js';
import { conditions } from '../helpers/conditions.js';

// The columnar table against the plain version it replaces: one object per item in a Map, conditions
// evaluated by the domain's reference (`matches`), ties ordered by comparing the texts.
const tieBreakOf =
  (rows: Map<number, Attributes>) =>
  (x: number, y: number): number => {
    const a = rows.get(x)!;
    const b = rows.get(y)!;
    return (
      b.quality - a.quality ||
      (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
    );
  };

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const instants = [
  '2025-01-01T00:00:00.000Z',
  '2025-01-01T00:00:00.001Z',
  '2024-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  // Texts kept as text: another layout, microseconds, an extended year, an impossible date.
  '2025-01-01 00:00:00',
  '2025-01-01T00:00:00.000123Z',
  '+010000-01-01T00:00:00.000Z',
  '2025-02-30T00:00:00.000Z',
  '',
];
const ids = ['ku_a', 'ku_ab', 'ku_b', 'sk_A', 'ku_', 'é', 'ku_é', 'x'.repeat(32), 'x'.repeat(33), 'x'.repeat(40)];
const words = ['kafka', 'redis', 'ops', 'ml', 'é'];
const row: fc.Arbitrary<Attributes> = fc.record(
  {
    quality: pick([0, 0.5, 0.25, 1, 0.1 + 0.2, 0.3]),
    createdAt: pick(instants),
    id: pick(ids),
    textKey: fc.integer({ min: -1, max: 2 ** 48 - 1 }),
    domain: fc.option(pick(words), { nil: null }),
    listed: fc.boolean(),
    visibility: pick(['public', 'private']),
    agentId: pick(['a1', 'a2', 'a3']),
    tags: fc.uniqueArray(pick(words), { minLength: 1, maxLength: 4 }),
    conformant: fc.boolean(),
    held: fc.boolean(),
    name: pick(['kafka', 'redis', '']),
    type: pick(['pattern', 'fact']),
  },
  { requiredKeys: ['quality', 'createdAt', 'id', 'textKey', 'domain'] },
);
const op = fc.oneof(
  fc.record({ set: fc.integer({ min: 0, max: 30 }), row }),
  fc.record({ del: fc.integer({ min: 0, max: 30 }) }),
);
const filter = conditions({
  domain: words,
  visibility: ['public', 'private'],
  publisher: ['a1', 'a2'],
  type: ['pattern', 'fact'],
  name: ['kafka', ''],
  tags: words,
  quality: [0, 0.3, 0.5],
});
/** What the reference evaluation reads of a row. */
const valuesOf = (a: Attributes): FilterValues => ({
  domain: a.domain,
  visibility: a.visibility ?? null,
  publisher: a.agentId ?? null,
  type: a.type ?? null,
  name: a.name ?? null,
  tags: a.tags ?? [],
  quality: a.quality,
  listed: a.listed ?? null,
  conformant: a.conformant ?? null,
  held: a.held ?? null,
});

test('the columnar table filters, orders and gives back rows as one object per item does', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 80 }), fc.array(filter, { minLength: 1, maxLength: 5 }), (ops, filters) => {
      const table = new AttributeTable();
      const rows = new Map<number, Attributes>();
      for (const o of ops) {
        if ('del' in o) assert.equal(table.delete(o.del), rows.delete(o.del));
        else {
          table.set(o.set, o.row);
          rows.set(o.set, o.row);
        }
      }
      assert.equal(table.size, rows.size);
      for (const [seq, a] of rows) assert.deepEqual(table.get(seq), { ...a });
      const keys = [...rows.keys()];
      for (const f of filters) {
        const admit = table.admit(f);
        for (const k of [...keys, 99])
          assert.equal(admit(k), rows.has(k) && matches(f, valuesOf(rows.get(k)!)), `key ${k} ${JSON.stringify(f)}`);
      }
      const plain = tieBreakOf(rows);
      for (const x of keys)
        for (const y of keys) assert.equal(Math.sign(table.tieBreak(x, y)) || 0, Math.sign(plain(x, y)) || 0);
      assert.deepEqual([...keys].sort(table.tieBreak), [...keys].sort(plain));
    }),
    { numRuns: 300 },
  );
});

test('many items: replaced tags and freed slots are reused without mixing rows', () => {
  const table = new AttributeTable();
  const rows = new Map<number, Attributes>();
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 2_000; i++) {
      const a: Attributes = {
        quality: (i * 7 + round) % 10,
        createdAt: new Date(Date.UTC(2025, 0, 1) + ((i * 13 + round) % 97) * 1000).toISOString(),
        id: `ku_${i}`,
        textKey: i + round,
        domain: `d${i % 7}`,
        tags: Array.from({ length: (i + round) % 6 }, (_, t) => `t${(i + t + round) % 50}`),
      };
      if (a.tags!.length === 0) delete a.tags;
      if ((i + round) % 3 === 0) {
        table.delete(i);
        rows.delete(i);
      } else {
        table.set(i, a);
        rows.set(i, a);
      }
    }
  }
  for (const [seq, a] of rows) assert.deepEqual(table.get(seq), { ...a });
  assert.deepEqual(new Set(table.keys()), new Set(rows.keys()));
});
