import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LexicalIndex, type FieldSpec } from '../../src/search/lexical.js';

const FIELDS: FieldSpec[] = [
  { name: 'name', weight: 10, b: 0.5 },
  { name: 'description', weight: 5, b: 0.75 },
  { name: 'tags', weight: 3, b: 0.5 },
  { name: 'body', weight: 1, b: 0.75 },
];
const make = () => new LexicalIndex({ fields: FIELDS, k1: 1.2 });
const doc = (name: string, description = '', tags = '', body = '') =>
  [name, description, tags, body].map((s) => s.split(' ').filter(Boolean));

test('OR semantics: an item sharing any term matches', () => {
  const ix = make();
  ix.add(1, doc('alpha'));
  ix.add(2, doc('beta'));
  ix.add(3, doc('gamma'));
  const keys = ix.search([{ term: 'alpha' }, { term: 'beta' }, { term: 'zzz' }], 10).map((h) => h.key);
  assert.deepEqual(keys.sort(), [1, 2]);
});

test('field weights order: name above description above tags above body', () => {
  const ix = make();
  ix.add(1, doc('x', 'y', 'z', 'kafka'));
  ix.add(2, doc('x', 'y', 'kafka', 'w'));
  ix.add(3, doc('x', 'kafka', 'z', 'w'));
  ix.add(4, doc('kafka', 'y', 'z', 'w'));
  for (let i = 10; i < 30; i++) ix.add(i, doc('filler', 'filler text', 'misc', 'more filler words'));
  assert.deepEqual(
    ix.search([{ term: 'kafka' }], 10).map((h) => h.key),
    [4, 3, 2, 1],
  );
});

test('more matched terms rank higher', () => {
  const ix = make();
  ix.add(1, doc('redis cache'));
  ix.add(2, doc('redis'));
  ix.add(3, doc('cache'));
  assert.equal(ix.search([{ term: 'redis' }, { term: 'cache' }], 3)[0]!.key, 1);
});

test('remove() makes an item disappear from the next search; re-adding replaces', () => {
  const ix = make();
  ix.add(1, doc('postgres backup'));
  ix.add(2, doc('postgres tuning'));
  assert.equal(ix.search([{ term: 'backup' }], 10).length, 1);
  assert.equal(ix.remove(1), true);
  assert.equal(ix.search([{ term: 'backup' }], 10).length, 0);
  assert.deepEqual(
    ix.search([{ term: 'postgres' }], 10).map((h) => h.key),
    [2],
  );
  ix.add(2, doc('mysql tuning'));
  assert.equal(ix.search([{ term: 'postgres' }], 10).length, 0);
  assert.equal(ix.size, 1);
  ix.compact();
  assert.deepEqual(
    ix.search([{ term: 'mysql' }], 10).map((h) => h.key),
    [2],
  );
});

test('filter predicate excludes items', () => {
  const ix = make();
  for (let i = 0; i < 10; i++) ix.add(i, doc('same'));
  const keys = ix.search([{ term: 'same' }], 10, { filter: (k) => k % 2 === 0 }).map((h) => h.key);
  assert.deepEqual(keys, [0, 2, 4, 6, 8]);
});

test('pruned (block-max WAND) top-k equals exhaustive top-k on random data', () => {
  const vocab = Array.from({ length: 40 }, (_, i) => `t${i}`);
  // Zipf-like term choice, so that some lists span many blocks and others are short.
  const term = fc.integer({ min: 0, max: 999 }).map((x) => vocab[Math.floor(Math.pow(x / 1000, 2.5) * vocab.length)]!);
  const field = (max: number) => fc.array(term, { maxLength: max });
  const docArb = fc.tuple(field(4), field(12), field(3), field(60));
  fc.assert(
    fc.property(
      fc.array(docArb, { minLength: 1, maxLength: 700, size: 'max' }),
      fc.array(fc.integer({ min: 0, max: 699 }), { maxLength: 100 }),
      fc.array(fc.tuple(term, fc.double({ min: 0.1, max: 3, noNaN: true })), { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 1, max: 50 }),
      fc.boolean(),
      (docs, removals, query, k, filtered) => {
        const ix = make();
        docs.forEach((d, i) => ix.add(i, d));
        for (const r of removals) ix.remove(r);
        const q = query.map(([t, weight]) => ({ term: t, weight }));
        const filter = filtered ? (key: number) => key % 3 !== 0 : undefined;
        const a = ix.search(q, k, { filter, exhaustive: false });
        const b = ix.search(q, k, { filter, exhaustive: true });
        assert.deepEqual(a, b);
      },
    ),
    { numRuns: 60, seed: 12 },
  );
});

test('trim() frees unused capacity and changes no answer, also as lists grow again', () => {
  const words = (i: number, n: number) => Array.from({ length: n }, (_, j) => `w${(i * 7 + j * 13) % 50}`).join(' ');
  const plain = make();
  const trimmed = make();
  for (let i = 0; i < 600; i++) {
    const d = doc(words(i, 3), words(i + 1, 10), words(i + 2, 2), words(i + 3, 40));
    plain.add(i, d);
    trimmed.add(i, d);
    if (i === 400) {
      const before = trimmed.memoryBytes();
      trimmed.trim();
      assert.ok(trimmed.memoryBytes() < before, 'trimming gives memory back');
    }
  }
  trimmed.remove(5);
  plain.remove(5);
  for (const q of [['w1'], ['w3', 'w17'], ['w0', 'w49', 'w25']]) {
    const terms = q.map((term) => ({ term }));
    for (const exhaustive of [true, false])
      assert.deepEqual(trimmed.search(terms, 20, { exhaustive }), plain.search(terms, 20, { exhaustive }));
  }
});

test('countMatches counts OR matches up to a cap', () => {
  const ix = make();
  for (let i = 0; i < 20; i++) ix.add(i, doc(i % 2 ? 'odd' : 'even', 'all'));
  assert.equal(ix.countMatches(['odd', 'all']), 20);
  assert.equal(ix.countMatches(['odd']), 10);
  assert.equal(ix.countMatches(['all'], 5), 5);
});

test('a list being built grows by an eighth; trimmed or restored it holds no spare room and grows by a sixty-fourth', async () => {
  const { Postings } = await import('../../src/search/postings.js');
  const { grownCapacity } = await import('../../src/search/typed-arrays.js');
  const list = new Postings(FIELDS.length);
  const sizes = new Set<number>();
  for (let i = 0; i < 100_000; i++) {
    list.push(i, i % 50 === 0 ? [3, 0, 0, 0] : [1, 0, 0, 0], 1);
    sizes.add(list.docs.length);
  }
  assert.ok(sizes.size < 100, `${sizes.size} sizes: doubling to 64, then by an eighth`);
  assert.equal(grownCapacity(1000, false), 1125);
  list.trim();
  assert.equal(list.docs.length, 100_000, 'the room growth left is given back');
  assert.equal(list.tfs.capacity, 100_000);
  const restored = Postings.restored(FIELDS.length, list.docs, list.tfs.saved(), list.imp);
  assert.equal(restored.docs.length, 100_000, 'a list loaded from a snapshot has no room either');
  list.push(100_000, [1, 0, 0, 0], 1);
  assert.equal(list.docs.length, 101_562, 'a large list grows by a sixty-fourth, not by doubling');
  assert.equal(grownCapacity(40, true), 80, 'a small one doubles');
  assert.equal(grownCapacity(1000, true), 1032, 'by 32 at least');
  const arrays = list.docs;
  for (let i = 1; i < 1_562; i++) list.push(100_000 + i, [1, 0, 0, 0], 1);
  assert.equal(list.docs, arrays, 'the postings added next go into the same arrays');
  const row = new Uint8Array(FIELDS.length);
  assert.deepEqual([...list.row(101_561, row)], [1, 0, 0, 0]);
  assert.deepEqual([...list.row(50, row)], [3, 0, 0, 0], 'the side table of larger frequencies is intact');
  list.push(101_562, [7, 0, 0, 0], 1);
  assert.deepEqual([...list.row(101_562, row)], [7, 0, 0, 0]);
  assert.deepEqual([...list.row(100_000 - 50, row)], [3, 0, 0, 0]);
  restored.push(100_000, [1, 0, 0, 0], 1);
  assert.equal(restored.docs.length, 101_562, 'a restored list grows by a sixty-fourth too');
  const side = restored.tfs.escIdx.length;
  restored.push(100_001, [9, 0, 0, 0], 1);
  assert.equal(restored.tfs.escIdx.length, grownCapacity(side, true), 'and so does its side table');
});

test('memory figures walked in slices equal the ones walked at once', async () => {
  const ix = make();
  for (let i = 0; i < 2_000; i++) ix.add(i, doc(`name${i}`, `word${i % 97} other${i % 13}`, 'tag', `body${i}`));
  assert.equal(await ix.memoryBytesInSlices(), ix.memoryBytes());
  assert.ok(ix.memoryBytes() > 0);
});

test('short lists in the shared pool answer as lists of their own: through growth, removals and compaction', () => {
  // Many rare terms (most lists hold one or two postings) and a few common ones.
  const term = fc
    .integer({ min: 0, max: 999 })
    .map((x) => (x < 700 ? `r${x % 300}` : `c${Math.floor(Math.pow((x - 700) / 300, 2) * 12)}`));
  const field = (max: number) => fc.array(term, { maxLength: max });
  const docArb = fc.tuple(field(3), field(6), field(2), field(20));
  const step = fc.oneof(
    { weight: 4, arbitrary: fc.record({ add: fc.integer({ min: 0, max: 200 }), d: docArb }) },
    { weight: 1, arbitrary: fc.record({ remove: fc.integer({ min: 0, max: 200 }) }) },
    { weight: 1, arbitrary: fc.constant({ compact: true }) },
  );
  fc.assert(
    fc.property(
      fc.array(step, { minLength: 1, maxLength: 300 }),
      fc.array(term, { minLength: 1, maxLength: 4 }),
      (steps, query) => {
        const indexes = [0, 1, 2, 4].map((shortLists) => new LexicalIndex({ fields: FIELDS, k1: 1.2, shortLists }));
        for (const s of steps)
          for (const ix of indexes) {
            if ('add' in s) ix.add(s.add, s.d);
            else if ('remove' in s) ix.remove(s.remove);
            else ix.compact();
          }
        const q = query.map((t) => ({ term: t }));
        const answers = indexes.map((ix) => ({
          wand: ix.search(q, 10, { exhaustive: false }),
          exhaustive: ix.search(q, 10, { exhaustive: true }),
          filtered: ix.search(q, 10, { filter: (k) => k % 2 === 0 }),
          count: ix.countMatches(query),
          df: query.map((t) => ix.docFreq(t)),
          contains: query.map((t) => [0, 1, 2, 3, 50, 100].map((k) => ix.contains(t, k))),
          vocabulary: ix.vocabularySize,
          postings: ix.postingsCount,
        }));
        for (const a of answers.slice(1)) assert.deepEqual(a, answers[0]);
        assert.deepEqual(answers[0]!.wand, answers[0]!.exhaustive);
      },
    ),
    { numRuns: 80, seed: 7 },
  );
});

test('the per-document columns restored from a snapshot grow by an eighth when a document is added', async () => {
  const { DocumentTable } = await import('../../src/search/document-table.js');
  const built = new DocumentTable(FIELDS.length);
  const fields = FIELDS.map(() => ['word']);
  for (let key = 0; key < 10_000; key++) built.add(key, fields);
  const restored = new DocumentTable(FIELDS.length);
  restored.restore(built.saved());
  for (let ord = 0; ord < 10_000; ord++) restored.restoreOrdinal(ord);
  assert.equal(restored.keys.length, 10_000, 'no spare room after a load');
  restored.add(10_000, fields);
  assert.equal(restored.keys.length, 11_250);
  assert.equal(restored.lens.length, 11_250 * FIELDS.length);
  assert.equal(restored.aliveCount, 10_001);
});
