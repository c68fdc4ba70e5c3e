// Free text as lists read it: a query is plain words (operators, quotes and wildcards a user types carry no
// meaning), and a list parameter is comma-separated values.

export const MAX_SEARCH_TERMS = 16;

/** The words of a query (letters and digits, Unicode-aware), lower-cased, de-duplicated, in order. */
export function searchTerms(q: string): string[] {
  const words =
    q
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_TERMS);
}

/** Comma-separated list parameter → trimmed, non-empty, de-duplicated values. */
export function commaList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The text filter of a list: no filter for an absent or blank `q`; `null` when `q` has no searchable
 * word at all (only punctuation), which matches nothing.
 */
export function textFilter(q: string | undefined): string[] | null {
  if (q === undefined || q.trim() === '') return [];
  const terms = searchTerms(q);
  return terms.length > 0 ? terms : null;
}
