import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LexicalIndex, type FieldSpec } from '../../src/search/lexical.js';

// The pruning strategy (block-max MaxScore) against the exhaustive reference: the same hits, scores,
// match counts and tie order, on corpora whose common lists span many blocks of 128.
const FIELDS: FieldSpec[] = [
  { name: 'name', weight: 10, b: 0.5 },
  { name: 'description', weight: 5, b: 0.75 },
  { name: 'tags', weight: 3, b: 0.5 },
  { name: 'body', weight: 1, b: 0.75 },
];

/** A corpus of `size` documents over a Zipf-like vocabulary of `vocab` terms, from `seed`. */
function corpus(seed: number, size: number, vocab: number, copies: number): string[][][] {
  let x = seed >>> 0 || 1;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const term = () => `t${Math.floor(Math.pow(rnd(), 3) * vocab)}`;
  const field = (max: number) => Array.from({ length: Math.floor(rnd() * (max + 1)) }, term);
  const docs: string[][][] = [];
  for (let i = 0; i < size; i++) {
    // Some documents repeat an earlier one exactly: equal scores, broken by insertion order.
    const copy = copies > 0 && i > 0 && rnd() < copies ? docs[Math.floor(rnd() * i)] : undefined;
    docs.push(copy ?? [field(3), field(10), field(3), field(40)]);
  }
  return docs;
}

test('pruned top-k equals the exhaustive one, and matches are counted exactly: random corpora and queries, k 1..200, ties, removals, filters', () => {
  fc.assert(
    fc.property(
      fc.record({
        seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        size: fc.integer({ min: 1, max: 3_000 }),
        vocab: fc.integer({ min: 2, max: 60 }),
        copies: fc.constantFrom(0, 0.1, 0.5),
        removed: fc.double({ min: 0, max: 0.5, noNaN: true }),
        filter: fc.constantFrom('none', 'thirds', 'rare'),
      }),
      // Terms drawn mostly from the commonest, repeated at times, with weights (some equal).
      fc.array(fc.tuple(fc.integer({ min: 0, max: 70 }), fc.constantFrom(1, 1, 0.5, 2.5)), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.integer({ min: 1, max: 200 }),
      (shape, query, k) => {
        const ix = new LexicalIndex({ fields: FIELDS, k1: 1.2 });
        const docs = corpus(shape.seed, shape.size, shape.vocab, shape.copies);
        docs.forEach((d, i) => ix.add(i, d));
        for (let i = 0; i < docs.length; i++)
          if ((Math.imul(i + 1, 2654435761) >>> 0) / 2 ** 32 < shape.removed) ix.remove(i);
        const filter =
          shape.filter === 'thirds'
            ? (key: number) => key % 3 !== 0
            : shape.filter === 'rare'
              ? (key: number) => key % 97 === 5
              : undefined;
        const q = query.map(([t, weight]) => ({ term: `t${t % (shape.vocab + 5)}`, weight }));
        const pruned = ix.search(q, k, { filter, exhaustive: false });
        const exhaustive = ix.search(q, k, { filter, exhaustive: true });
        assert.deepEqual(pruned, exhaustive);
        // Every match, counted exactly (with the filter), and up to a cap.
        const all = ix.search(q, docs.length, { filter, exhaustive: true }).length;
        const terms = q.map((t) => t.term);
        assert.equal(ix.countMatches(terms, Infinity, filter), all);
        assert.equal(ix.countMatches(terms, k, filter), Math.min(all, k));
      },
    ),
    { numRuns: 150, seed: 21 },
  );
});

test('pruned top-k equals the exhaustive one when most postings tie (one common term in every field)', () => {
  const ix = new LexicalIndex({ fields: FIELDS, k1: 1.2 });
  for (let i = 0; i < 5_000; i++) ix.add(i, [['common'], ['common', i % 7 === 0 ? 'seven' : 'other'], [], ['common']]);
  for (let i = 0; i < 5_000; i += 11) ix.remove(i);
  for (const k of [1, 10, 199, 200])
    for (const q of [['common'], ['common', 'seven'], ['seven', 'common', 'common', 'other']]) {
      const terms = q.map((term) => ({ term }));
      assert.deepEqual(ix.search(terms, k, { exhaustive: false }), ix.search(terms, k, { exhaustive: true }));
    }
});
