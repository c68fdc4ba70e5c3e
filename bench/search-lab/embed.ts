// Fills the lab's embedding cache for the corpus and the dev queries (CPU-heavy: run it alone).
//   npx tsx bench/search-lab/embed.ts [--provider builtin] [--body-chars 300] [--max-chars 600] [--limit N]
import { join } from 'node:path';
import { BuiltinEmbeddings } from '../../src/search/embeddings/builtin.js';
import { embeddingText } from '../../src/search/document.js';
import { EmbeddingCache } from './embed-cache.js';
import { findEvalDir, loadCorpus, loadQueries } from './corpus.js';

const args = new Map<string, string>();
process.argv.slice(2).forEach((a, i, all) => a.startsWith('--') && args.set(a.slice(2), all[i + 1] ?? 'true'));
const evalDir = findEvalDir(args.get('eval-dir'));
const bodyChars = Number(args.get('body-chars') ?? 0);
const maxChars = Number(args.get('max-chars') ?? 600);
const provider = new BuiltinEmbeddings();
const cache = new EmbeddingCache(provider.id, provider.dimensions);
const queries = loadQueries(join(evalDir, 'dev-queries.jsonl'));
await cache.embedAll(
  provider,
  queries.flatMap((q) => [q.keyword, q.task]),
);
console.log(`queries embedded; cache ${cache.size}`);
const corpus = await loadCorpus(join(evalDir, 'corpus.jsonl.gz'), Number(args.get('limit') ?? Infinity));
const texts = corpus.skills.map((s) => embeddingText(s, bodyChars, maxChars));
const t0 = performance.now();
await cache.embedAll(provider, texts, 32, (done, todo, perS) => {
  if (done % 640 === 0 || done === todo)
    process.stderr.write(`  ${done}/${todo} embedded, ${perS.toFixed(1)} texts/s\n`);
});
console.log(
  `corpus embedded (${texts.length} texts, body ${bodyChars}, max ${maxChars}) in ${((performance.now() - t0) / 1000).toFixed(0)} s; cache ${cache.size}`,
);
