// Profiles query analysis, lexical top-k (block-max MaxScore vs exhaustive, k = 10…200) and the engine on the
// 20k real skills, no embeddings: npx tsx bench/search-lab/profile.ts
import { join } from 'node:path';
import { findEvalDir, loadCorpus, loadQueries } from './corpus.js';
import { SearchEngine } from '../../src/search/engine.js';
const dir = findEvalDir();
const corpus = await loadCorpus(join(dir, 'corpus.jsonl.gz'));
const qs = loadQueries(join(dir, 'dev-queries.jsonl')).flatMap((q) => [q.keyword, q.task]);
const e = new SearchEngine({ bodyWords: 200, analyzer: { synonyms: false } });
corpus.skills.forEach((s, i) => e.upsert({ key: i, ...s }));
const time = (label: string, fn: (q: string) => void) => {
  for (const q of qs) fn(q);
  const ms: number[] = [];
  for (let r = 0; r < 3; r++)
    for (const q of qs) {
      const t = performance.now();
      fn(q);
      ms.push(performance.now() - t);
    }
  ms.sort((a, b) => a - b);
  console.log(
    label,
    'p50',
    ms[ms.length >> 1]!.toFixed(2),
    'p99',
    ms[Math.floor(ms.length * 0.99)]!.toFixed(2),
    'mean',
    (ms.reduce((a, b) => a + b) / ms.length).toFixed(2),
  );
};
time('analyze', (q) => e.queryTerms(q));
for (const k of [10, 50, 100, 200]) {
  time(`pruned k=${k}`, (q) => e.lexical.search(e.queryTerms(q), k));
  time(`exh  k=${k}`, (q) => e.lexical.search(e.queryTerms(q), k, { exhaustive: true }));
}
time('engine limit 10', (q) => e.search(q, { limit: 10 }));
