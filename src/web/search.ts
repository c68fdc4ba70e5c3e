// The results page's parameters, as a form sends them (empty fields are absent; a field may repeat, as the
// unit types' checkboxes do, or hold a comma-separated list, as in the API), and the page it shows: the
// service's page of items with its paging. The filter fields are the lists' declared filters
// (src/domain/filters.ts): the form reads each one as text and turns it into the value its schema takes.
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { badRequest } from '../domain/errors.js';
import { SKILL_FILTERS, UNIT_FILTERS, type FilterField, type FilterFields } from '../domain/filters.js';
import { UNIT_TYPES } from '../domain/model.js';
import { format } from './format.js';

export const RESULTS_PER_PAGE = 20;

const FIELDS: Record<'skills' | 'knowledge', FilterFields> = { skills: SKILL_FILTERS, knowledge: UNIT_FILTERS };
const FORM_PARAMS = [...new Set([...Object.keys(SKILL_FILTERS), ...Object.keys(UNIT_FILTERS)])];

/** A form field, once or repeated (a single value arrives as a list of one). */
const FormField = Type.Optional(Type.Array(Type.String({ maxLength: 1100 }), { maxItems: 20 }));

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 500 })),
  kind: Type.Optional(Type.Enum(['skills', 'knowledge'])),
  ...Object.fromEntries(FORM_PARAMS.map((param) => [param, FormField])),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50_000 })),
});
export type SearchQuery = Static<typeof SearchQuery>;

export interface Search {
  kind: 'skills' | 'knowledge';
  /** Undefined when blank: the list in its own order (quality, then newest). */
  q: string | undefined;
  /** Each filter as typed (for the form and the links). */
  filters: Record<string, string>;
  /** Each filter as the list takes it. */
  params: Record<string, string | number | boolean>;
  page: number;
}

const present = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** A form's text as the value the filter's schema takes; a 400 naming the field otherwise. */
function formValue(field: FilterField, param: string, text: string): string | number | boolean {
  const type = (field.schema as { type?: string }).type;
  const value =
    type === 'number' ? Number(text) : type === 'boolean' ? text === 'true' || (text === 'false' ? false : text) : text;
  if (!Value.Check(field.schema, value)) {
    const what = type === 'number' ? 'a number from 0 to 1' : type === 'boolean' ? 'true or false' : 'shorter text';
    throw badRequest(`${param} must be ${what}`);
  }
  return value as string | number | boolean;
}

export function readSearch(query: SearchQuery): Search {
  const kind = query.kind === 'knowledge' ? 'knowledge' : 'skills';
  const filters: Record<string, string> = {};
  const params: Record<string, string | number | boolean> = {};
  for (const [param, field] of Object.entries(FIELDS[kind])) {
    const given = (query as Record<string, unknown>)[param] as string[] | undefined;
    const text = present(
      (given ?? [])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean)
        .join(','),
    );
    if (text === undefined) continue;
    filters[param] = text;
    params[param] = formValue(field, param, text);
  }
  return { kind, q: present(query.q), filters, params, page: query.page ?? 1 };
}

/** What the results template shows. */
export function searchView<T>(search: Search, found: { items: T[]; total: number; capped?: boolean }, offset: number) {
  const link = (page: number) => format.searchHref({ kind: search.kind, q: search.q, ...search.filters, page });
  return {
    ...search,
    q: search.q ?? '',
    domain: search.filters.domain ?? '',
    tags: search.filters.tags ?? '',
    min_quality: search.filters.min_quality ?? '',
    types: (search.filters.types ?? '').split(',').filter(Boolean),
    allTypes: UNIT_TYPES,
    filtered: Object.keys(search.filters).length > 0,
    items: found.items,
    total: found.total,
    capped: found.capped === true,
    from: offset + 1,
    to: offset + found.items.length,
    prev: search.page > 1 ? link(search.page - 1) : null,
    next: offset + found.items.length < found.total ? link(search.page + 1) : null,
  };
}
