// Search as lists answer it: `q` in natural language, ranked by the search index
// (search/registry-search.ts) among the items a list's filters admit. Every search is the index's: until
// it can answer (while it is first built), a search is refused as unavailable, never answered another way.
import { visibleTo } from '../domain/access.js';
import { unavailable } from '../domain/errors.js';
import type { Visibility } from '../domain/model.js';
import type { Viewer } from '../store/store.js';
import type { RegistrySearch, SearchFilter, SearchKind, UnitFilter } from '../search/index.js';
import type { Context } from './context.js';
import { SummaryCache } from './summary-cache.js';

/** A page of search results; `capped` when more than MAX_SEARCH_RESULTS matched (then `total` is that bound). */
export interface SearchPage<T> {
  items: T[];
  total: number;
  capped: boolean;
}

export interface SkillFilters {
  viewer: Viewer;
  domain?: string;
  /** Lower-cased. */
  tags: string[];
  minQuality?: number;
  conformant?: boolean;
  publisher?: string;
  name?: string;
}

/** The skills a list admits, as the store's listSkills admits them. */
export function skillFilter(f: SkillFilters): SearchFilter {
  return (item) =>
    item.listed === true &&
    visibleTo(f.viewer, { visibility: item.visibility as Visibility, agent_id: item.agentId ?? '' }) &&
    (f.domain === undefined || item.domain === f.domain) &&
    (f.minQuality === undefined || item.quality >= f.minQuality) &&
    (f.conformant === undefined || item.conformant === f.conformant) &&
    (f.publisher === undefined || item.agentId === f.publisher) &&
    (f.name === undefined || item.name === f.name) &&
    f.tags.every((t) => item.tags?.includes(t) === true);
}

export interface UnitFilters {
  types: readonly string[];
  domain?: string;
  minQuality?: number;
}

/**
 * The units a list admits, as data the search index applies (a scoring worker too); null when it admits
 * every unit (the search then asks nothing of each match).
 */
export function unitFilter(f: UnitFilters): UnitFilter | null {
  if (f.types.length === 0 && f.domain === undefined && f.minQuality === undefined) return null;
  return {
    types: f.types,
    ...(f.domain === undefined ? {} : { domain: f.domain }),
    ...(f.minQuality === undefined ? {} : { minQuality: f.minQuality }),
  };
}

/** A page from the search index (503 while it is not built yet). */
export async function searchIndex<T>(
  ctx: Context,
  kind: 'skill' | 'unit',
  q: string,
  filter: SearchFilter | null,
  page: { limit: number; offset: number },
): Promise<SearchPage<T>> {
  const hits = await ctx.search?.search(kind, q, filter, page.limit, page.offset);
  if (!hits) throw unavailable('the search index is being built; retry shortly');
  const load = (seqs: readonly number[]) =>
    kind === 'skill' ? ctx.store.skillSummariesBySeq(seqs) : ctx.store.unitSummariesBySeq(seqs);
  const items = (await summaryCaches(ctx.search!)[kind].read(hits.seqs, load)) as T[];
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
