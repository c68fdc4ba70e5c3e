// The vector indexes against a brute-force scan over random unit vectors: the exact index finds exactly
// the true top 10; HNSW (usearch, i8 as the registry runs it) finds nearly all of them; both honour
// removals, replacements, filters and the similarity floor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeInPlace } from '../../src/search/embeddings/provider.js';
import { UsearchVectorIndex } from '../../src/search/vectors-usearch.js';
import { ExactVectorIndex, type VectorIndex } from '../../src/search/vectors.js';

const DIMS = 64;
/** A fixed pseudo-random sequence (mulberry32), so that a failure can be reproduced. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(42);
const vector = () => normalizeInPlace(Float32Array.from({ length: DIMS }, () => rnd() * 2 - 1));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

const items = new Map<number, Float32Array>();
for (let key = 0; key < 2_000; key++) items.set(key, vector());
const queries = Array.from({ length: 50 }, vector);
const truth = (q: Float32Array, k: number, filter: (key: number) => boolean = () => true) =>
  [...items]
    .filter(([key]) => filter(key))
    .map(([key, v]) => ({ key, score: dot(q, v) }))
    .sort((a, b) => b.score - a.score || a.key - b.key)
    .slice(0, k)
    .map((h) => h.key);

function filled(index: VectorIndex): VectorIndex {
  for (const [key, v] of items) index.upsert(key, v);
  return index;
}
function recallAt10(index: VectorIndex, filter?: (key: number) => boolean): number {
  let found = 0;
  for (const q of queries) {
    const want = new Set(truth(q, 10, filter));
    found += index.search(q, 10, -Infinity, filter).filter((h) => want.has(h.key)).length;
  }
  return found / (10 * queries.length);
}

test('the exact index returns exactly the true top 10, with exact similarities', () => {
  const index = filled(new ExactVectorIndex(DIMS, 16));
  for (const q of queries) {
    const hits = index.search(q, 10);
    assert.deepEqual(
      hits.map((h) => h.key),
      truth(q, 10),
    );
    for (const h of hits) assert.ok(Math.abs(h.score - dot(q, items.get(h.key)!)) < 1e-5);
  }
  const even = (key: number) => key % 2 === 0;
  assert.equal(recallAt10(index, even), 1);
});

test('usearch (HNSW, i8) finds at least 95% of the true top 10', () => {
  const index = filled(new UsearchVectorIndex(DIMS, { quantization: 'i8' }));
  const recall = recallAt10(index);
  assert.ok(recall >= 0.95, `recall@10 ${recall}`);
  // Scores are the exact similarities, whatever the graph's quantized distances.
  for (const h of index.search(queries[0]!, 10))
    assert.ok(Math.abs(h.score - dot(queries[0]!, items.get(h.key)!)) < 1e-5);
});

test('both honour removals, replacements and the similarity floor', () => {
  for (const index of [
    filled(new ExactVectorIndex(DIMS)),
    filled(new UsearchVectorIndex(DIMS, { quantization: 'i8' })),
  ]) {
    const q = queries[1]!;
    const [best] = index.search(q, 1);
    assert.ok(index.remove(best!.key));
    assert.ok(!index.search(q, 10).some((h) => h.key === best!.key), 'a removed item is not found');
    index.upsert(7, q);
    assert.equal(index.search(q, 1)[0]!.key, 7, 'a replaced vector is searched by its new value');
    assert.ok(index.search(q, 10, 0.99).every((h) => h.score >= 0.99));
    assert.equal(index.size, items.size - 1);
    index.upsert(best!.key, items.get(best!.key)!);
    index.upsert(7, items.get(7)!);
  }
});
