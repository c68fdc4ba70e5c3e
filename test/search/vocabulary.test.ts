// What items may add to the lexical index's vocabulary: a word new to it costs far more memory than one
// more posting of a known word, so one item, one owner (an agent) and everyone together are bounded. An
// item keeps the words that fit (name first) and stays searchable by them; a full vocabulary refuses new
// words and says so, instead of growing until the process dies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
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
