// The results page's parameters, as a form sends them (empty fields are absent, `types` may repeat or be
// comma-separated as in the API), and the page it shows: the service's page of items with its paging.
import { Type, type Static } from 'typebox';
import { badRequest } from '../domain/errors.js';
import { UNIT_TYPES } from '../domain/model.js';
import { format } from './format.js';

export const RESULTS_PER_PAGE = 20;

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 500 })),
  kind: Type.Optional(Type.Enum(['skills', 'knowledge'])),
  domain: Type.Optional(Type.String({ maxLength: 100 })),
  tags: Type.Optional(Type.String({ maxLength: 1100 })),
  types: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: UNIT_TYPES.length })),
  min_quality: Type.Optional(Type.String({ maxLength: 20 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50_000 })),
});
export type SearchQuery = Static<typeof SearchQuery>;

export interface Search {
  kind: 'skills' | 'knowledge';
  /** Undefined when blank: the list in its own order (quality, then newest). */
  q: string | undefined;
  domain: string | undefined;
  tags: string | undefined;
  types: string[];
  /** As typed, for the form; minQuality is its value. */
  min_quality: string | undefined;
  minQuality: number | undefined;
  page: number;
}

const present = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

export function readSearch(query: SearchQuery): Search {
  const kind = query.kind === 'knowledge' ? 'knowledge' : 'skills';
  const min_quality = present(query.min_quality);
  const minQuality = min_quality === undefined ? undefined : Number(min_quality);
  if (minQuality !== undefined && !(Number.isFinite(minQuality) && minQuality >= 0 && minQuality <= 1)) {
    throw badRequest('min_quality must be a number from 0 to 1');
  }
  const types = [
    ...new Set(
      (query.types ?? [])
        .flatMap((t) => t.split(','))
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  return {
    kind,
    q: present(query.q),
    domain: present(query.domain),
    tags: kind === 'skills' ? present(query.tags) : undefined,
    types: kind === 'knowledge' ? types : [],
    min_quality,
    minQuality,
    page: query.page ?? 1,
  };
}

/** What the results template shows. */
export function searchView<T>(search: Search, found: { items: T[]; total: number; capped?: boolean }, offset: number) {
  const link = (page: number) => format.searchHref({ ...search, page });
  const filtered =
    search.domain !== undefined ||
    search.tags !== undefined ||
    search.types.length > 0 ||
    search.minQuality !== undefined;
  return {
    ...search,
    q: search.q ?? '',
    domain: search.domain ?? '',
    tags: search.tags ?? '',
    min_quality: search.min_quality ?? '',
    allTypes: UNIT_TYPES,
    filtered,
    items: found.items,
    total: found.total,
    capped: found.capped === true,
    from: offset + 1,
    to: offset + found.items.length,
    prev: search.page > 1 ? link(search.page - 1) : null,
    next: offset + found.items.length < found.total ? link(search.page + 1) : null,
  };
}
