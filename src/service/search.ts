// Search as lists answer it: `q` in natural language, ranked by the search index
// (search/registry-search.ts) among the items a list's condition admits. Every search is the index's: until
// it can answer (while it is first built), a search is refused as unavailable, never answered another way.
import type { Condition } from '../domain/filters.js';
import { unavailable } from '../domain/errors.js';
import type { RegistrySearch, SearchKind } from '../search/index.js';
import type { Context } from './context.js';
import { SummaryCache } from './summary-cache.js';

/** A page of search results; `capped` when more than MAX_SEARCH_RESULTS matched (then `total` is that bound). */
export interface SearchPage<T> {
  items: T[];
  total: number;
  capped: boolean;
}

/**
 * A page from the search index among the items a list's condition admits (503 while the index is not built
 * yet). A page of skills is checked against the store before it is answered: whatever the index (or the
 * summaries kept beside it) may still hold, a skill the condition no longer admits (made private, yanked)
 * is left out.
 */
export async function searchPage<T>(
  ctx: Context,
  kind: 'skill' | 'unit',
  q: string,
  condition: Condition,
  page: { limit: number; offset: number },
): Promise<SearchPage<T>> {
  const filter = 'and' in condition && condition.and.length === 0 ? null : condition;
  const hits = await ctx.search?.search(kind, q, filter, page.limit, page.offset);
  if (!hits) throw unavailable('the search index is being built; retry shortly');
  const caches = summaryCaches(ctx.search!);
  let seqs = hits.seqs;
  if (kind === 'skill' && seqs.length > 0) {
    const listed = await ctx.store.admittedSkillSeqs(seqs, condition);
    if (listed.size < seqs.length) {
      caches.skill.forget(seqs.filter((seq) => !listed.has(seq)));
      seqs = seqs.filter((seq) => listed.has(seq));
    }
  }
  const load = (seqs: readonly number[]) =>
    kind === 'skill' ? ctx.store.skillSummariesBySeq(seqs) : ctx.store.unitSummariesBySeq(seqs);
  const items = (await caches[kind].read(seqs, load)) as T[];
  return { items, total: hits.total, capped: hits.capped };
}

/** The summaries kept for one search index, forgotten item by item as the index applies changes. */
const caches = new WeakMap<RegistrySearch, Record<SearchKind, SummaryCache<unknown>>>();

function summaryCaches(search: RegistrySearch): Record<SearchKind, SummaryCache<unknown>> {
  let kept = caches.get(search);
  if (!kept) {
    const made = { skill: new SummaryCache<unknown>(), unit: new SummaryCache<unknown>() };
    search.onChange((kind, seqs) => made[kind].forget(seqs));
    caches.set(search, (kept = made));
  }
  return kept;
}
