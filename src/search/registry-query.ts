// One search over one kind's index of the registry (registry-search.ts): the query's vector within its
// budget, the page (paging stops at MAX_SEARCH_RESULTS), and the matches counted up to that bound.
import type { WorkerEmbeddings } from './embeddings/worker.js';
import type { LexicalTopK } from './engine.js';
import type { JobFilter, ScoringPool } from './scoring-pool.js';
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
  // A worker scores and counts when it can apply the filter itself (none, or a unit filter as data).
  const jobFilter = pool !== null && filter !== null ? index.jobFilter(filter) : null;
  const offThread = pool !== null && (filter === null || jobFilter !== null) ? pool : null;
  const result = offThread
    ? await engine.searchWith(q, options, topKOf(index, offThread, jobFilter))
    : engine.search(q, options);
  const cap = MAX_SEARCH_RESULTS + 1;
  const counted = offThread
    ? await countOf(index, offThread, q, cap, admit, jobFilter)
    : engine.countMatches(q, cap, admit);
  const matches = counted + (result.semanticOnly ?? 0);
  const seqs = offset < end ? result.hits.map((h) => h.key) : [];
  return { seqs, total: Math.min(matches, MAX_SEARCH_RESULTS), capped: matches > MAX_SEARCH_RESULTS };
}

/**
 * The lexical top-k of `index`, scored by a worker of `pool` when the query's lists are long enough, with
 * `jobFilter` when the search has a filter; in this thread otherwise, or when the worker fails.
 */
function topKOf(index: KindIndex, pool: ScoringPool, jobFilter: JobFilter | null): LexicalTopK {
  const lexical = index.engine.lexical;
  return ({ terms, k, options }) => {
    const plan = k <= 0 ? null : lexical.plan(terms, options);
    if (plan === null || !pool.takes(plan.postings)) return lexical.search(terms, k, options);
    return pool.score(plan, k, lexical.ordinalLimit, lexical.alive, jobFilter ?? undefined).then(
      (a) => Array.from(a.ords, (ord, i) => ({ key: lexical.keyOf(ord), score: a.scores[i]!, matched: a.matched[i]! })),
      () => lexical.search(terms, k, options),
    );
  };
}

/**
 * The matches of `q` counted up to `cap`: by a worker of `pool` when the search has a filter and its lists
 * are long enough (a selective filter may have the count walk every list to its end). Without a filter
 * the count stops after about `cap` documents, cheaper here than a second trip to the worker.
 */
async function countOf(
  index: KindIndex,
  pool: ScoringPool,
  q: string,
  cap: number,
  admit: ((key: number) => boolean) | undefined,
  jobFilter: JobFilter | null,
): Promise<number> {
  const { engine } = index;
  const lists = engine.lexical.matchLists(engine.matchTerms(q));
  const postings = lists.reduce((n, p) => n + p.length, 0);
  const here = () => engine.countMatches(q, cap, admit);
  if (jobFilter === null || !pool.takes(postings)) return here();
  const { ordinalLimit, alive } = engine.lexical;
  return pool.count(lists, cap, ordinalLimit, alive, jobFilter ?? undefined).catch(here);
}
