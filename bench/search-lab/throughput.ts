// Embedding throughput of the built-in model (USE-lite, @energetic-ai, WebAssembly SIMD, one thread):
// texts per second of CPU time and of wall time, for the texts the engine embeds, per batch size; and the
// latency of one query embedding (cold cache). CPU time is robust to other load on a shared machine.
//   npx tsx bench/search-lab/throughput.ts [--texts 96]
import { join } from 'node:path';
import { BuiltinEmbeddings } from '../../src/search/embeddings/builtin.js';
import { embeddingText } from '../../src/search/document.js';
import { findEvalDir, loadCorpus, loadQueries } from './corpus.js';

const argv = process.argv.slice(2);
const n = Number(argv[argv.indexOf('--texts') + 1] ?? 96) || 96;
const dir = findEvalDir();
const corpus = await loadCorpus(join(dir, 'corpus.jsonl.gz'), 2000);
const sample = corpus.skills.filter((_, i) => i % 20 === 0).slice(0, n);
const variants: Array<[string, string[]]> = [
  ['name + description + 300 body chars (≤600)', sample.map((s) => embeddingText(s, 300, 600))],
  ['name + description (≤600)', sample.map((s) => embeddingText(s, 0, 600))],
];
const p = new BuiltinEmbeddings(1);
await p.embed(['warm up the model']);
console.log('| text | mean chars | batch | texts/s (CPU) | texts/s (wall) |\n|---|---:|---:|---:|---:|');
for (const [label, texts] of variants) {
  const chars = texts.reduce((a, t) => a + t.length, 0) / texts.length;
  for (const batch of [1, 8]) {
    const q = new BuiltinEmbeddings(batch);
    await q.embed([texts[0]!]);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await q.embed(texts);
    const cpu = process.cpuUsage(c0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    console.log(
      `| ${label} | ${chars.toFixed(0)} | ${batch} | ${(texts.length / cpuS).toFixed(1)} | ${(texts.length / ((performance.now() - t0) / 1000)).toFixed(1)} |`,
    );
  }
}
const queries = loadQueries(join(dir, 'dev-queries.jsonl')).flatMap((x) => [x.keyword, x.task]);
const wall: number[] = [];
const cpu: number[] = [];
for (const q of queries) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await p.embed([q]);
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const pct = (xs: number[], f: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))]!.toFixed(1);
console.log(
  `\nquery embedding (${queries.length} dev queries, cold): wall p50 ${pct(wall, 0.5)} ms, p99 ${pct(wall, 0.99)} ms, max ${pct(wall, 1)} ms; CPU p50 ${pct(cpu, 0.5)} ms, p99 ${pct(cpu, 0.99)} ms`,
);
