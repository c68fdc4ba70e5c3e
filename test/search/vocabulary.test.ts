// What items may add to the lexical index's vocabulary: a word new to it costs far more memory than one
// more posting of a known word, so one item, one owner (an agent) and everyone together are bounded. An
// item keeps the words that fit (name first) and stays searchable by them; a full vocabulary refuses new
// words and says so, instead of growing until the process dies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LexicalIndex, type FieldSpec, type TermLimits } from '../../src/search/lexical.js';

const FIELDS: FieldSpec[] = [
  { name: 'name', weight: 10, b: 0.5 },
  { name: 'description', weight: 5, b: 0.75 },
  { name: 'tags', weight: 3, b: 0.5 },
  { name: 'body', weight: 1, b: 0.75 },
];
const limited = (limits: Partial<TermLimits>, memoryFull = () => false) => {
  const ix = new LexicalIndex({ fields: FIELDS, k1: 1.2 });
  ix.limits = { perDocument: Infinity, newPerDocument: Infinity, perOwner: Infinity, total: Infinity, ...limits };
  ix.memoryFull = memoryFull;
  return ix;
};
const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const found = (ix: LexicalIndex, term: string) => ix.search([{ term }], 10).map((h) => h.key);

test('an item indexes at most perDocument distinct words, name first, and is found by the ones kept', () => {
  const ix = limited({ perDocument: 50 });
  const refused = ix.add(1, [['wanted'], words('d', 1_200), [], []]);
  assert.equal(refused, 1_151);
  assert.equal(ix.vocabularySize, 50);
  assert.deepEqual(found(ix, 'wanted'), [1]);
  assert.deepEqual(found(ix, 'd48'), [1]);
  assert.deepEqual(found(ix, 'd49'), []);
  assert.deepEqual(ix.vocabulary(), { terms: 50, limit: Infinity, documentsCut: 1, termsRefused: 1_151, full: false });
});

test('new words per item are bounded, known words are not', () => {
  const ix = limited({ newPerDocument: 10 });
  ix.add(1, [[], words('w', 30), [], []]);
  assert.equal(ix.vocabularySize, 10);
  // The same words again: the ten known ones are indexed, ten more are new.
  assert.equal(ix.add(2, [[], words('w', 30), [], []]), 10);
  assert.equal(ix.vocabularySize, 20);
  assert.deepEqual(
    found(ix, 'w5').sort((a, b) => a - b),
    [1, 2],
  );
  assert.deepEqual(found(ix, 'w15'), [2]);
});

test('one owner brings at most perOwner words; others still add theirs; deleting gives the room back', () => {
  const ix = limited({ perOwner: 100 });
  for (let i = 0; i < 10; i++) ix.add(i, [[], words(`spam${i}-`, 30), [], []], 'mallory');
  assert.equal(ix.ownerTermCount('mallory'), 100);
  assert.equal(ix.vocabularySize, 100);
  ix.add(100, [['kubernetes'], ['operator', 'spam0-1'], [], []], 'alice');
  assert.deepEqual(found(ix, 'kubernetes'), [100], 'another agent still adds new words');
  assert.deepEqual(
    found(ix, 'spam0-1').sort((a, b) => a - b),
    [0, 100],
    'and is indexed by words the first one brought',
  );
  ix.add(11, [['mallory-new'], ['spam0-1'], [], []], 'mallory');
  assert.deepEqual(found(ix, 'mallory-new'), [], 'past its bound, an owner adds no new word…');
  assert.deepEqual(
    found(ix, 'spam0-1').sort((a, b) => a - b),
    [0, 11, 100],
    '…but its items are indexed by known words',
  );
  for (let i = 1; i < 10; i++) ix.remove(i);
  ix.compact();
  assert.equal(ix.ownerTermCount('mallory'), 30, 'words that left the vocabulary count no more');
  ix.add(12, [['mallory-new'], [], [], []], 'mallory');
  assert.deepEqual(found(ix, 'mallory-new'), [12]);
});

test('a full vocabulary refuses new words and says so; known words are still indexed', () => {
  const ix = limited({ total: 100 });
  for (let i = 0; i < 5; i++) ix.add(i, [[], words(`u${i}-`, 30), [], []], `agent${i}`);
  assert.equal(ix.vocabularySize, 100);
  assert.equal(ix.vocabulary().full, 'terms');
  ix.add(10, [['novel'], ['u0-1'], [], []], 'late');
  assert.deepEqual(found(ix, 'novel'), []);
  assert.deepEqual(
    found(ix, 'u0-1').sort((a, b) => a - b),
    [0, 10],
  );
});

test('when memory runs short no new word is admitted, until it does not', () => {
  let short = false;
  const ix = limited({}, () => short);
  ix.add(1, [['before'], [], [], []]);
  short = true;
  // Memory is looked at every 64 items.
  for (let i = 2; i < 200; i++) ix.add(i, [[`item${i}`], ['before'], [], []]);
  const vocabulary = ix.vocabulary();
  assert.equal(vocabulary.full, 'memory');
  assert.ok(vocabulary.terms < 70, `${vocabulary.terms} words`);
  assert.equal(ix.countMatches(['before']), 199, 'items are indexed by the words already known');
  short = false;
  for (let i = 200; i < 300; i++) ix.add(i, [[`item${i}`], [], [], []]);
  assert.equal(ix.vocabulary().full, false);
  assert.deepEqual(found(ix, 'item299'), [299]);
});

test('a word only removed items held leaves the vocabulary and is never saved; its id serves a new word', () => {
  const ix = limited({});
  // Enough words that one removal does not sweep at once (a sweep comes after 1/1024 of the vocabulary).
  for (let i = 0; i < 3_000; i++) ix.add(i, [[`name${i}`], ['shared'], [], []], 'alice');
  ix.add(5_000, [['erased'], ['shared', 'secretword'], [], []], 'mallory');
  const size = ix.vocabularySize;
  ix.remove(5_000);
  const saved = () => new Set([...ix.termLists()].map(([term]) => term));
  assert.equal(saved().has('secretword'), false, 'never saved once no live item holds it');
  assert.equal(saved().has('erased'), false);
  assert.ok(saved().has('shared'));
  assert.deepEqual(found(ix, 'secretword'), []);
  assert.equal(ix.vocabularySize, size, 'held in memory until the next sweep');
  for (let i = 0; i < 2; i++) ix.remove(i);
  assert.equal(ix.vocabularySize, size - 4, 'the sweep after three removals took their own words out');
  assert.equal(ix.docFreq('secretword'), 0);
  assert.equal(ix.docFreq('shared'), 3_001, 'document frequencies of the words kept are unchanged until compaction');
  assert.equal(ix.ownerTermCount('mallory'), 0, 'words that left the vocabulary count no more');
  ix.add(6_000, [['fresh'], ['newword'], [], []], 'bob');
  assert.deepEqual(found(ix, 'newword'), [6_000]);
  assert.deepEqual(found(ix, 'name3'), [3]);
  assert.deepEqual(found(ix, 'name1'), []);
});

test('after a sweep the vocabulary is exactly the words of the live items, through adds, replacements and removals', () => {
  const term = fc.integer({ min: 0, max: 400 }).map((x) => `w${x}`);
  const docArb = fc.tuple(
    fc.array(term, { maxLength: 3 }),
    fc.array(term, { maxLength: 8 }),
    fc.constant<string[]>([]),
    fc.constant<string[]>([]),
  );
  const step = fc.oneof(
    { weight: 3, arbitrary: fc.record({ add: fc.integer({ min: 0, max: 60 }), d: docArb }) },
    { weight: 2, arbitrary: fc.record({ remove: fc.integer({ min: 0, max: 60 }) }) },
  );
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 200 }), (steps) => {
      const ix = limited({});
      ix.sweepShare = 0.05;
      const live = new Map<number, string[][]>();
      for (const s of steps) {
        if ('add' in s) {
          ix.add(s.add, s.d);
          live.set(s.add, s.d);
        } else {
          ix.remove(s.remove);
          live.delete(s.remove);
        }
      }
      const held = new Set([...live.values()].flatMap((d) => d.flat()));
      assert.deepEqual(new Set([...ix.termLists()].map(([t]) => t)), held, 'what a snapshot saves');
      ix.dropDeadTerms();
      assert.equal(ix.vocabularySize, held.size, 'what memory holds');
      for (const t of held)
        assert.equal(ix.countMatches([t]), [...live.values()].filter((d) => d.flat().includes(t)).length, t);
    }),
    { numRuns: 100, seed: 3 },
  );
});
