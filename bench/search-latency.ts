// Search latency in process: the registry's two indexes for N units and N/10 skills of the synthetic
// corpus (built, or loaded from a snapshot kept under bench/.corpus/), then each query mix of the HTTP
// bench (two words, natural language, worst case) searched one at a time over the units, as a request
// does (registry-query.ts: the page of 20 and the total), with no HTTP around it. Prints per mix
// p50/p95/p99/max in ms, and the postings each scoring strategy visited per query.
//
//   node --import tsx bench/search-latency.ts [units=100000] [searches per mix=2000] [strategy] [snapshot file]
//
// strategy: auto (the index's choice, the default), exhaustive or pruned (every query by that strategy).
// SCORING_WORKERS=N in the environment: long queries are scored by a pool of N workers (scoring-pool.ts);
// the CPU time is then the whole process's (the workers' included), the postings counted only in this thread.
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpus, CORPUS_VERSION, naturalQueries, typicalQueries, worstCaseQueries } from './corpus.js';
import { buildIndexes, makeIndexes } from './search-items.js';
import { searchIndex } from '../src/search/registry-query.js';
import { scoringStats } from '../src/search/top-k.js';
import { ScoringPool } from '../src/search/scoring-pool.js';
import { loadIndexSnapshot, snapshotFingerprint, writeIndexSnapshot } from '../src/search/snapshot.js';

/** A snapshot of no database: the bench loads it itself, with no change log to follow. */
const BENCH_MARK = { database: 'bench', position: { tx: 0, seq: 0 }, last: { tx: 0, seq: 0 } };

const units = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 2_000);
const skills = Math.round(units / 10);
const here = dirname(fileURLToPath(import.meta.url));
const strategy = process.argv[4] ?? 'auto';
const path = process.argv[5] ?? join(here, '.corpus', `search-latency-${units}.snap`);
const fingerprint = snapshotFingerprint({ bench: 'search-latency', corpus: CORPUS_VERSION, units, skills });

const c = corpus();
let indexes = makeIndexes();
let t = performance.now();
try {
  if (!existsSync(path)) throw new Error('no snapshot');
  await loadIndexSnapshot(path, indexes, fingerprint, () => undefined);
  console.error(`loaded ${path} in ${Math.round((performance.now() - t) / 100) / 10} s`);
} catch (err) {
  console.error(`building (${(err as Error).message})`);
  t = performance.now();
  indexes = buildIndexes(units, skills, c);
  console.error(`built in ${Math.round((performance.now() - t) / 1000)} s`);
  await mkdir(dirname(path), { recursive: true });
  await writeIndexSnapshot(path, indexes, BENCH_MARK, fingerprint);
}

if (strategy !== 'auto') {
  const pruned = strategy === 'pruned';
  for (const kind of ['skill', 'unit'] as const) {
    const lexical = indexes[kind].engine.lexical;
    lexical.exhaustiveBelow = pruned ? 0 : Infinity;
    lexical.prunedMaxTerms = pruned ? Infinity : 0;
  }
}

const workers = Number(process.env.SCORING_WORKERS ?? 0);
const pool = workers > 0 ? new ScoringPool(workers) : null;

const mixes: Record<string, string[]> = {
  two_words: typicalQueries(c, 2_000),
  natural: naturalQueries(c, 2_000),
  worst: worstCaseQueries(c),
};
const ms = (x: number) => Math.round(x * 100) / 100;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const perQuery = (s: { queries: number; postings: number }) => (s.queries > 0 ? Math.round(s.postings / s.queries) : 0);

for (const [name, queries] of Object.entries(mixes)) {
  // A warm-up over the mix (compilation), then the measured searches.
  for (let i = 0; i < Math.min(200, runs); i++)
    await searchIndex(indexes.unit, null, pool, queries[i % queries.length]!, null, 20, 0);
  for (const s of Object.values(scoringStats)) s.queries = s.postings = 0;
  // Wall time, and the process's CPU time (what a search costs when other processes share the cores).
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    await searchIndex(indexes.unit, null, pool, queries[i % queries.length]!, null, 20, 0);
    const spent = process.cpuUsage(used);
    times.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const row = {
    mix: name,
    p50: ms(pct(times, 0.5)),
    p95: ms(pct(times, 0.95)),
    p99: ms(pct(times, 0.99)),
    max: ms(times[times.length - 1]!),
    mean: ms(times.reduce((a, b) => a + b, 0) / times.length),
    cpu: { p50: ms(pct(cpu, 0.5)), p99: ms(pct(cpu, 0.99)), mean: ms(cpu.reduce((a, b) => a + b, 0) / cpu.length) },
    exhaustive: { queries: scoringStats.exhaustive.queries, postings: perQuery(scoringStats.exhaustive) },
    pruned: { queries: scoringStats.pruned.queries, postings: perQuery(scoringStats.pruned) },
  };
  console.log(JSON.stringify(row));
}
await pool?.close();
