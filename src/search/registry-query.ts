// One search over one kind's index of the registry (registry-search.ts): the query's vector within its
// budget, the page (paging stops at MAX_SEARCH_RESULTS), and the matches counted up to that bound.
import type { WorkerEmbeddings } from './embeddings/worker.js';
import type { KindIndex, SearchFilter } from './registry-index.js';
import { MAX_SEARCH_RESULTS, type SearchHits } from './registry-options.js';

/** A query's vector is awaited this long; later, the search ranks lexically (the vector is cached for next time). */
const QUERY_VECTOR_BUDGET_MS = 20;

/** The best matches of `q` in `index` among the items `filter` admits (every item when null), best first. */
export async function searchIndex(
  index: KindIndex,
  worker: WorkerEmbeddings | null,
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
  const result = engine.search(q, {
    ...page,
    ...(admit ? { filter: admit } : {}),
    tieBreak: index.tieBreak,
    ...(queryVector ? { queryVector } : {}),
  });
  const matches = engine.countMatches(q, MAX_SEARCH_RESULTS + 1, admit) + (result.semanticOnly ?? 0);
  const seqs = offset < end ? result.hits.map((h) => h.key) : [];
  return { seqs, total: Math.min(matches, MAX_SEARCH_RESULTS), capped: matches > MAX_SEARCH_RESULTS };
}
