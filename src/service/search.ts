// Search as lists answer it (CONTRACT.md, "List parameters"): `q` in natural language, ranked by the
// search index (search/registry-search.ts) among the items a list's filters admit; the store's own
// full-text search answers while the index is still being built, with the same word rules.
import type { Page, Viewer } from '../store/store.js';
import { ENGLISH_STOP_WORDS, QUERY_STOP_WORDS } from '../search/stopwords.js';
import type { SearchFilter } from '../search/registry-index.js';
import type { Context } from './context.js';

import { MAX_SEARCH_RESULTS } from '../search/registry-search.js';

export { MAX_SEARCH_RESULTS };

const STOP = new Set([...ENGLISH_STOP_WORDS, ...QUERY_STOP_WORDS]);

/** The words of a query that say what it is about: stop words and the ways people ask ("how do I", "help me") dropped, as the index drops them. */
export function meaningfulWords(terms: readonly string[]): string[] {
  return terms.filter((t) => !STOP.has(t));
}

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
    (f.viewer.everything || item.visibility === 'public' || (f.viewer.agentId !== null && item.agentId === f.viewer.agentId)) &&
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

export function unitFilter(f: UnitFilters): SearchFilter {
  return (item) =>
    (f.types.length === 0 || (item.type !== undefined && f.types.includes(item.type))) &&
    (f.domain === undefined || item.domain === f.domain) &&
    (f.minQuality === undefined || item.quality >= f.minQuality);
}

/** A page from the search index, or null while it is not built yet. */
export async function searchIndex<T>(
  ctx: Context,
  kind: 'skill' | 'unit',
  q: string,
  filter: SearchFilter,
  page: { limit: number; offset: number },
): Promise<SearchPage<T> | null> {
  const hits = await ctx.search?.search(kind, q, filter, page.limit, page.offset);
  if (!hits) return null;
  const items = (kind === 'skill' ? await ctx.store.skillSummariesBySeq(hits.seqs) : await ctx.store.unitSummariesBySeq(hits.seqs)) as T[];
  return { items, total: hits.total, capped: hits.capped };
}

/**
 * A page of the store's own full-text search (while the index is built) under the same bound: a total
 * beyond MAX_SEARCH_RESULTS becomes the bound, and no page starts past it.
 */
export function capPage<T>(page: Page<T>): SearchPage<T> {
  if (page.total <= MAX_SEARCH_RESULTS) return { ...page, capped: false };
  return { items: page.items, total: MAX_SEARCH_RESULTS, capped: true };
}
