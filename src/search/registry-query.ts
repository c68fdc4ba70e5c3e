// One search over one kind's index of the registry (registry-search.ts): the query's vector within its
// budget, the page (paging stops at MAX_SEARCH_RESULTS), and the matches counted up to that bound.
import type { WorkerEmbeddings } from './embeddings/worker.js';
import type { LexicalTopK } from './engine.js';
import type { ScoringPool } from './scoring-pool.js';
import type { KindIndex, SearchFilter } from './registry-index.js';
import { MAX_SEARCH_RESULTS, type SearchHits } from './registry-options.js';

/** A query's vector is awaited this long; later, the search ranks lexically (the vector is cached for next time). */
const QUERY_VECTOR_BUDGET_MS = 20;

/** The best matches of `q` in `index` among the items `filter` admits (every item when null), best first. */
export async function searchIndex(
  index: KindIndex,
  worker: WorkerEmbeddings | null,
  pool: ScoringPool | null,
  q: string,
  filter: SearchFilter | null,
  limit: number,
  offset: number,
): Promise<SearchHits> {
  const engine = index.engine;
  const admit = filter === null ? undefined : index.admit(filter);
  const queryVector =
    worker && engine.needsQueryVector(q) ? await worker.embedQueryWithin(q, QUERY_VECTOR_BUDGET_MS) : null;
  // Paging stops at the bound.
  const end = Math.min(offset + limit, MAX_SEARCH_RESULTS);
  const page = offset < end ? { limit: end - offset, offset } : { limit: 1, offset: 0 };
  const options = {
    ...page,
    ...(admit ? { filter: admit } : {}),
    tieBreak: index.tieBreak,
    ...(queryVector ? { queryVector } : {}),
  };
  const result = pool === null ? engine.search(q, options) : await engine.searchWith(q, options, topKOf(index, pool));
  const matches = engine.countMatches(q, MAX_SEARCH_RESULTS + 1, admit) + (result.semanticOnly ?? 0);
  const seqs = offset < end ? result.hits.map((h) => h.key) : [];
  return { seqs, total: Math.min(matches, MAX_SEARCH_RESULTS), capped: matches > MAX_SEARCH_RESULTS };
}

/**
 * The lexical top-k of `index`, scored by a worker of `pool` when the query's lists are long enough and the
 * search has no filter (a closure the worker cannot run); in this thread otherwise, or when the worker fails.
 */
function topKOf(index: KindIndex, pool: ScoringPool): LexicalTopK {
  const lexical = index.engine.lexical;
  return ({ terms, k, options }) => {
    const plan = options.filter || k <= 0 ? null : lexical.plan(terms, options);
    if (plan === null || !pool.takes(plan)) return lexical.search(terms, k, options);
    return pool.score(plan, k, lexical.ordinalLimit, lexical.alive).then(
      (a) => Array.from(a.ords, (ord, i) => ({ key: lexical.keyOf(ord), score: a.scores[i]!, matched: a.matched[i]! })),
      () => lexical.search(terms, k, options),
    );
  };
}
