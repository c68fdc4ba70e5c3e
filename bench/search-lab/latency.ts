// End-to-end search latency at 20k real skills, one client, as the registry would serve it: the query is
// embedded by the built-in model on a worker thread (cold cache: every query text is new to it) when the
// engine would use its vector, then searched. Item vectors come from the lab's cache.
//   npx tsx bench/search-lab/latency.ts [--config '{...}'] [--vectors exact|usearch] [--rounds 1] [--budget ms]
// With --budget, a query whose embedding is not back in time is ranked lexically (column "embedded"
// counts the queries that did get their vector).
import { join } from 'node:path';
import { findEvalDir, loadCorpus, loadQueries } from './corpus.js';
import { EmbeddingCache } from './embed-cache.js';
import { BUILTIN_ID } from '../../src/search/embeddings/builtin.js';
import { WorkerEmbeddings } from '../../src/search/embeddings/worker.js';
import { embeddingText } from '../../src/search/document.js';
import { SearchEngine } from '../../src/search/engine.js';
import type { SearchConfig } from '../../src/search/hybrid.js';
import { UsearchVectorIndex } from '../../src/search/vectors-usearch.js';

const argv = process.argv.slice(2);
const arg = (n: string, d: string) => {
  const i = argv.indexOf(`--${n}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : d;
};
const overrides = JSON.parse(arg('config', '{}')) as Partial<SearchConfig>;
const dir = findEvalDir();
const corpus = await loadCorpus(join(dir, 'corpus.jsonl.gz'));
const cache = new EmbeddingCache(BUILTIN_ID, 512);
const bodyChars = Number(arg('embed-body-chars', '0'));
const engine = new SearchEngine(overrides, {
  providerId: BUILTIN_ID,
  dimensions: 512,
  ...(arg('vectors', 'usearch') === 'usearch'
    ? { vectorIndex: new UsearchVectorIndex(512, { quantization: 'f32', expansionSearch: 256 }) }
    : {}),
});
let missing = 0;
corpus.skills.forEach((s, i) => {
  const v = cache.get(embeddingText(s, bodyChars, 600));
  if (!v) missing++;
  engine.upsert({ key: i, ...s }, v);
});
if (missing)
  throw new Error(
    `${missing} item vectors missing from the cache (bench/search-lab/embed.ts --body-chars ${bodyChars})`,
  );
const mem = engine.memoryBytes();
if (global.gc) global.gc();
console.log(
  `${engine.size} skills; lexical ~${(mem.lexical / 2 ** 20).toFixed(0)} MiB, vectors ~${(mem.vectors / 2 ** 20).toFixed(0)} MiB; heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
);

const embedder = new WorkerEmbeddings({ kind: 'builtin' });
await embedder.embedQuery('warm up the worker and the model');
const queries = loadQueries(join(dir, 'dev-queries.jsonl'));
const rounds = Number(arg('rounds', '1'));
/** Time budget for the query embedding (ms); 0 = always wait for it. */
const budget = Number(arg('budget', '0'));
const rows: Array<{ kind: string; ms: number; embedded: boolean }> = [];
for (let r = 0; r < rounds; r++) {
  for (const q of queries) {
    for (const kind of ['keyword', 'task'] as const) {
      // A new text each round keeps the query cache cold.
      const text = r === 0 ? q[kind] : `${q[kind]} ${'x'.repeat(r)}`;
      const t0 = performance.now();
      const embedded = engine.needsQueryVector(text);
      const queryVector = !embedded
        ? null
        : budget > 0
          ? await embedder.embedQueryWithin(text, budget)
          : await embedder.embedQuery(text);
      engine.search(text, { limit: 10, ...(queryVector ? { queryVector } : {}) });
      rows.push({ kind, ms: performance.now() - t0, embedded: !!queryVector });
      // Let a late embedding finish before the next query, as a client waiting between requests would.
      if (embedded && !queryVector) await embedder.embedQuery(text);
    }
  }
}
await embedder.close();
const pct = (xs: number[], f: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))] ?? NaN;
console.log('\n| queries | n | embedded | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|');
for (const kind of ['keyword', 'task', 'all']) {
  const rs = rows.filter((r) => kind === 'all' || r.kind === kind);
  const ms = rs.map((r) => r.ms);
  console.log(
    `| ${kind} | ${rs.length} | ${rs.filter((r) => r.embedded).length} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.99).toFixed(1)} | ${pct(ms, 1).toFixed(1)} |`,
  );
}
