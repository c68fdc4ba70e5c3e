import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalIndex, type FieldSpec, type QueryTerm } from '../../src/search/lexical.js';
import { SHARED_FROM } from '../../src/search/postings.js';
import { ScoringPool } from '../../src/search/scoring-pool.js';
import { ReadWriteGate } from '../../src/search/gate.js';
import { SearchEngine } from '../../src/search/engine.js';
import { isShared } from '../../src/search/typed-arrays.js';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { contributeUnit, register, testApp } from '../helpers/app.js';
import { matches, type Condition } from '../../src/domain/filters.js';

// Scoring in a worker thread (scoring-pool.ts) against scoring in this one: the same hits, scores, match
// counts and tie order, over lists read in place from shared memory and lists copied into the job.
const FIELDS: FieldSpec[] = [
  { name: 'name', weight: 10, b: 0.5 },
  { name: 'description', weight: 5, b: 0.75 },
  { name: 'tags', weight: 3, b: 0.5 },
  { name: 'body', weight: 1, b: 0.75 },
];

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Documents over a Zipf-like vocabulary: the commonest terms' lists pass SHARED_FROM, the rarest hold a few. */
function fields(rnd: () => number, vocab: number): string[][] {
  const term = () => `t${Math.floor(Math.pow(rnd(), 3) * vocab)}`;
  const field = (max: number) => Array.from({ length: Math.floor(rnd() * (max + 1)) }, term);
  return [field(3), field(8), field(3), field(30)];
}

const pool = new ScoringPool(2, 0);
after(() => pool.close());

/** A query's top-k as a worker of the pool finds it, with its keys. */
async function pooled(ix: LexicalIndex, q: QueryTerm[], k: number, exhaustive?: boolean) {
  const plan = ix.plan(q, exhaustive === undefined ? {} : { exhaustive });
  if (plan === null) return [];
  const a = await pool.score(plan, k, ix.ordinalLimit, ix.alive);
  return Array.from(a.ords, (ord, i) => ({ key: ix.keyOf(ord), score: a.scores[i]!, matched: a.matched[i]! }));
}

test('a worker scores as this thread does: both strategies, k 1..300, shared and copied lists, removed documents, lists grown after the first jobs', async () => {
  const rnd = rng(7);
  const ix = new LexicalIndex({ fields: FIELDS, k1: 2 });
  let key = 0;
  const add = (n: number) => {
    for (let i = 0; i < n; i++) ix.add(key++, fields(rnd, 400));
  };
  add(12_000);
  const common = ix.plan([{ term: 't0' }])!.qs[0]!.p;
  assert.ok(common.length >= SHARED_FROM && isShared(common.docs) && isShared(common.imp), 'a common list is shared');
  assert.ok(isShared(ix.alive));
  const rare = ix.plan([{ term: 't399' }]);
  assert.ok(rare === null || !isShared(rare.qs[0]!.p.docs), 'a rare list is not');
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 40; i++) {
      const n = 1 + Math.floor(rnd() * 6);
      const q = Array.from({ length: n }, () => ({
        term: `t${Math.floor(Math.pow(rnd(), 2) * 420)}`,
        weight: [1, 0.5, 2.5][Math.floor(rnd() * 3)]!,
      }));
      const k = 1 + Math.floor(rnd() * 300);
      for (const exhaustive of [true, false, undefined]) {
        const here = ix.search(q, k, exhaustive === undefined ? {} : { exhaustive });
        assert.deepEqual(await pooled(ix, q, k, exhaustive), here, `round ${round}, query ${i}`);
      }
    }
    // Between rounds the index changes: removals, and new documents (lists grow into new buffers).
    for (let i = 0; i < 1_500; i++) ix.remove(Math.floor(rnd() * key));
    add(3_000);
  }
});

test('the engine ranks the same with its lexical top-k from the pool', async () => {
  const rnd = rng(11);
  const engine = new SearchEngine();
  for (let i = 0; i < 6_000; i++) {
    const [name, description, tags, body] = fields(rnd, 300);
    engine.upsert({
      key: i,
      name: name!.join(' ') || 'x',
      description: description!.join(' '),
      tags: tags!,
      body: body!.join(' '),
    });
  }
  for (const q of ['t0 t1', 't3 t40 t7 t12', 't1', 't250 t2', 'nothing here']) {
    for (const offset of [0, 190, 400]) {
      const options = { limit: 20, offset };
      const here = engine.search(q, options);
      const there = await engine.searchWith(q, options, async ({ terms, k, options: o }) => {
        const plan = engine.lexical.plan(terms, o);
        if (plan === null) return [];
        const a = await pool.score(plan, k, engine.lexical.ordinalLimit, engine.lexical.alive);
        return Array.from(a.ords, (ord, i) => ({
          key: engine.lexical.keyOf(ord),
          score: a.scores[i]!,
          matched: a.matched[i]!,
        }));
      });
      assert.deepEqual(there, here, `${q} from ${offset}`);
    }
  }
});

test('a worker that dies fails its jobs, and the next job starts another', async () => {
  const ix = new LexicalIndex({ fields: FIELDS, k1: 2 });
  const rnd = rng(3);
  for (let i = 0; i < 2_000; i++) ix.add(i, fields(rnd, 50));
  const q = [{ term: 't0' }, { term: 't1' }];
  const failures: string[] = [];
  const one = new ScoringPool(1, 0, (error) => failures.push(error.message));
  try {
    const plan = ix.plan(q)!;
    const first = one.score(plan, 10, ix.ordinalLimit, ix.alive);
    await first;
    // The worker is ended with a job out: termination starts before the job is posted, so the worker can
    // never answer it (a job posted first could be answered before a busy machine gets to terminate it).
    const worker = (one as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots[0]!.worker;
    const ending = worker.terminate();
    const out = one.score(plan, 10, ix.ordinalLimit, ix.alive);
    await ending;
    await assert.rejects(out, /exited/);
    assert.equal(one.pending, 0);
    assert.deepEqual([one.answered, one.failed], [1, 1]);
    assert.deepEqual(failures, ['a scoring worker exited'], 'the failure is told once');
    const again = await one.score(plan, 10, ix.ordinalLimit, ix.alive);
    assert.deepEqual(
      Array.from(again.ords, (ord) => ix.keyOf(ord)),
      ix.search(q, 10).map((h) => h.key),
    );
  } finally {
    await one.close();
  }
  assert.equal(failures.length, 1, 'closing the pool is not a failure');
  assert.equal(one.takes(ix.plan(q)!.postings), false, 'a closed pool takes nothing');
});

test('the gate: a write waits for the reads under way, and reads that come meanwhile wait for it', async () => {
  const gate = new ReadWriteGate();
  const events: string[] = [];
  const release: (() => void)[] = [];
  const reading = (name: string) =>
    gate.read(async () => {
      events.push(`${name} starts`);
      await new Promise<void>((resolve) => release.push(resolve));
      events.push(`${name} ends`);
    });
  const r1 = reading('r1');
  const r2 = reading('r2');
  await new Promise((resolve) => setImmediate(resolve));
  const w = gate.write(async () => {
    events.push('write');
  });
  const r3 = reading('r3');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(events, ['r1 starts', 'r2 starts'], 'the write and the later read wait');
  release.shift()!();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(events, ['r1 starts', 'r2 starts', 'r1 ends'], 'one read still under way');
  release.shift()!();
  await w;
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(events, ['r1 starts', 'r2 starts', 'r1 ends', 'r2 ends', 'write', 'r3 starts']);
  release.shift()!();
  await Promise.all([r1, r2, r3]);
  // A write that fails leaves the gate open.
  await assert.rejects(
    gate.write(() => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(await gate.read(async () => 'read'), 'read');
});

test('the registry answers the same with every query scored by a worker, while units keep arriving', async () => {
  const t = await testApp(openSqliteStore('sqlite::memory:'));
  const pooledSearch = new RegistrySearch(t.store, {
    embeddings: { kind: 'none' },
    scoringWorkers: 1,
    scoringMinPostings: 0,
  });
  const plain = new RegistrySearch(t.store, { embeddings: { kind: 'none' }, scoringWorkers: 0 });
  try {
    const key = await register(t.app, 'pooler');
    const words = ['harbor', 'lantern', 'copper', 'meadow', 'signal', 'orchard'];
    const contribute = (i: number) =>
      contributeUnit(t.app, key, {
        title: `${words[i % 6]} ${words[(i * 5 + 1) % 6]} note ${i}`,
        content: {
          description: `${words[(i * 7 + 2) % 6]} and ${words[(i + 3) % 6]} field report ${i}`,
          examples: ['x'],
        },
        type: ['pattern', 'fact', 'pitfall'][i % 3],
        domain: ['alpha', 'beta'][i % 2],
      });
    for (let i = 0; i < 30; i++) await contribute(i);
    for (const s of [pooledSearch, plain]) {
      s.start();
      await s.ready;
    }
    for (let round = 0; round < 5; round++) {
      // Searches and a contribution at once: the change is applied between searches, never under one.
      const queries = ['harbor lantern', 'copper', 'meadow signal orchard', 'note', 'lantern report'];
      const [answers] = await Promise.all([
        Promise.all(queries.map((q) => pooledSearch.search('unit', q, null, 10, 0))),
        contribute(100 + round),
      ]);
      assert.ok(answers.every((a) => a !== null && a.seqs.length > 0));
      for (const q of queries)
        assert.deepEqual(
          await pooledSearch.search('unit', q, null, 10, 0),
          await plain.search('unit', q, null, 10, 0),
          q,
        );
    }
    const counts = (pooledSearch as unknown as { pool: { answered: number; failed: number } }).pool;
    assert.ok(counts.answered >= 50, `${counts.answered} searches scored by the worker`);
    assert.equal(counts.failed, 0);
    // A unit filter as data goes to the worker with the columns it reads: the same pages and totals as in
    // this thread, and as the same rule written as a predicate over the item (the plain reading of it).
    const floor = (await plain.search('unit', 'note', null, 1, 0))!.seqs[0]!;
    const atFloor = (await t.store.unitSummariesBySeq([floor]))[0]!.quality_score;
    const filters: Condition[] = [
      { attr: 'type', anyOf: ['fact'] },
      {
        and: [
          { attr: 'type', anyOf: ['pitfall', 'pattern'] },
          { attr: 'domain', equals: 'beta' },
        ],
      },
      { attr: 'domain', equals: 'alpha' },
      { attr: 'quality', atLeast: atFloor },
      { attr: 'quality', atLeast: 2 },
      { attr: 'domain', equals: 'nowhere' },
      { attr: 'type', anyOf: ['nosuch'] },
      {
        or: [
          { attr: 'domain', equals: 'alpha' },
          { attr: 'type', anyOf: ['fact'] },
        ],
      },
    ];
    const before = counts.answered;
    for (const filter of filters)
      for (const q of ['harbor lantern', 'copper report', 'note'])
        for (const offset of [0, 3]) {
          const answer = await pooledSearch.search('unit', q, filter, 4, offset);
          const what = `${q} ${JSON.stringify(filter)}`;
          assert.deepEqual(answer, await plain.search('unit', q, filter, 4, offset), what);
          // Every unit answered satisfies the condition as the domain's reference reads it.
          for (const item of await t.store.searchItemsBySeq('unit', answer!.seqs))
            assert.ok(
              matches(filter, { type: item.type!, domain: item.domain, quality: item.qualityScore, tags: item.tags }),
              what,
            );
        }
    assert.ok(counts.answered >= before + 2 * 8 * 3 * 2, 'ranked and counted by the worker');
    assert.equal(counts.failed, 0);
    const some = await plain.search('unit', 'note', { attr: 'type', anyOf: ['fact'] }, 50, 0);
    assert.ok(some!.total > 0 && some!.total < 35, 'the filter admits some units, not all');
    const floorAnswer = await pooledSearch.search('unit', 'note', { attr: 'quality', atLeast: atFloor }, 50, 0);
    assert.ok(floorAnswer!.seqs.includes(floor), 'a unit exactly at the floor is admitted');
  } finally {
    await pooledSearch.close();
    await plain.close();
    await t.close();
  }
});
