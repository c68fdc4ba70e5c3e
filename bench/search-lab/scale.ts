// Scale test of the lexical index: N synthetic knowledge units whose words follow the real corpus's
// vocabulary and frequencies (terms drawn from the analyzed names, descriptions and bodies of the
// search-eval skills), then one client asking two-word OR queries and the dev task queries, measuring
// p50/p99/max per search (limit 20), pruned vs exhaustive agreement on a sample, index memory.
//
//   npx tsx bench/search-lab/scale.ts [--units 1000000] [--queries 2000] [--check 100]
import { join } from 'node:path';
import { findEvalDir, loadCorpus, loadQueries } from './corpus.js';
import { Analyzer } from '../../src/search/analyzer.js';
import { LexicalIndex } from '../../src/search/lexical.js';
import { DEFAULT_CONFIG } from '../../src/search/hybrid.js';

const argv = process.argv.slice(2);
const arg = (n: string, d: string) => {
  const i = argv.indexOf(`--${n}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : d;
};
const N = Number(arg('units', '1000000'));
const NQ = Number(arg('queries', '2000'));
const CHECK = Number(arg('check', '100'));

// Deterministic PRNG (mulberry32).
let seed = 42;
const rand = () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const dir = findEvalDir();
const corpus = await loadCorpus(join(dir, 'corpus.jsonl.gz'));
const analyzer = new Analyzer(DEFAULT_CONFIG.analyzer);
// Term pools with their natural frequencies: sampling a position of the pool samples by frequency.
const titlePool: string[] = [];
const descPool: string[] = [];
const bodyPool: string[] = [];
for (const s of corpus.skills) {
  titlePool.push(...analyzer.indexTerms(s.name));
  descPool.push(...analyzer.indexTerms(s.description));
  bodyPool.push(...analyzer.indexTerms(s.body.slice(0, 1500)).slice(0, 120));
}
const pick = (pool: string[], n: number) => Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]!);
const domains = Array.from({ length: 50 }, (_, i) => `domain${i}`);

const ix = new LexicalIndex({ fields: DEFAULT_CONFIG.fields, k1: DEFAULT_CONFIG.k1 });
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const title = pick(titlePool, 3 + Math.floor(rand() * 5));
  const desc = pick(descPool, 15 + Math.floor(rand() * 30));
  const tags = [...pick(titlePool, 2), domains[Math.floor(rand() * domains.length)]!];
  const examples = pick(bodyPool, 20 + Math.floor(rand() * 60));
  ix.add(i, [title, desc, tags, examples]);
  if ((i + 1) % 200_000 === 0)
    process.stderr.write(`  ${i + 1} units indexed, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}
const buildS = (performance.now() - t0) / 1000;
if (global.gc) global.gc();
console.log(
  `${N} units indexed in ${buildS.toFixed(0)} s; ${ix.vocabularySize} terms; index ~${(ix.memoryBytes() / 2 ** 20).toFixed(0)} MiB (arrays at capacity); heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
);

const dev = loadQueries(join(dir, 'dev-queries.jsonl'));
const twoWord: string[][] = [];
const devKw = dev.map((q) => analyzer.queryTerms(q.keyword)).filter((t) => t.length >= 2);
for (let i = 0; i < NQ; i++) {
  const t = devKw[Math.floor(rand() * devKw.length)]!;
  const a = Math.floor(rand() * t.length);
  let b = Math.floor(rand() * (t.length - 1));
  if (b >= a) b++;
  twoWord.push([t[a]!, t[b]!]);
}
const tasks = dev.map((q) => analyzer.queryTerms(q.task));

function measure(label: string, qs: string[][], exhaustive?: boolean) {
  for (const q of qs.slice(0, 50))
    ix.search(
      q.map((term) => ({ term })),
      20,
      { exhaustive },
    );
  const ms: number[] = [];
  for (const q of qs) {
    const t = performance.now();
    ix.search(
      q.map((term) => ({ term })),
      20,
      { exhaustive },
    );
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const p = (x: number) => ms[Math.min(ms.length - 1, Math.floor(x * ms.length))]!.toFixed(2);
  console.log(`| ${label} | ${qs.length} | ${p(0.5)} | ${p(0.99)} | ${ms[ms.length - 1]!.toFixed(2)} |`);
}
console.log('\n| queries (limit 20) | n | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|');
measure('two-word OR, auto', twoWord);
measure('two-word OR, block-max MaxScore', twoWord, false);
measure('two-word OR, exhaustive', twoWord, true);
measure('dev task queries, auto', tasks);
measure('dev task queries, block-max MaxScore', tasks, false);
measure('dev task queries, exhaustive', tasks, true);

let diff = 0;
for (const q of [...twoWord.slice(0, CHECK), ...tasks]) {
  const a = ix.search(
    q.map((term) => ({ term })),
    20,
    { exhaustive: false },
  );
  const b = ix.search(
    q.map((term) => ({ term })),
    20,
    { exhaustive: true },
  );
  if (JSON.stringify(a) !== JSON.stringify(b)) diff++;
}
console.log(
  `\npruned top-20 differs from exhaustive on ${diff} of ${Math.min(CHECK, twoWord.length) + tasks.length} queries`,
);
