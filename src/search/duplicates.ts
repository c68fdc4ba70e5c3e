// Near-duplicate handling for the search engine (engine.ts): copies of one item (the same normalized name
// and, with collapseDuplicates 'description', description term sets whose Jaccard overlap reaches
// `duplicateJaccard`) rank after every distinct item, in their own order, so the first page shows
// different things and every match is still in the list.
import type { SearchConfig } from './hybrid.js';

/** What near-duplicate detection compares of an item. */
export interface CopyKey {
  /** The normalized name's id: equal ids, equal names (-1 when none: never a copy). */
  name: number;
  /** Sorted unique description terms (read only for items whose name was seen before). */
  descSet: () => readonly string[];
}

/** Jaccard overlap of two sorted, de-duplicated term lists. */
function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}

/**
 * The hits, best first, with the copies of an item already ranked moved after every distinct item (for
 * collapseDuplicates 'name' or 'description'). `infoOf`: what is compared of each hit's item.
 */
export function collapseDuplicates<H extends { key: number }>(
  hits: H[],
  infoOf: (key: number) => CopyKey,
  cfg: Pick<SearchConfig, 'collapseDuplicates' | 'duplicateJaccard'>,
): H[] {
  // By name: the items kept so far, and their description terms once a second item of the name asks.
  type Kept = { key: CopyKey; terms?: readonly string[] };
  const kept = new Map<number, Kept[]>();
  const terms = (o: Kept) => (o.terms ??= o.key.descSet());
  const copies: H[] = [];
  const ranked = hits.filter((h) => {
    const info = infoOf(h.key);
    if (info.name < 0) return true;
    const same = kept.get(info.name);
    const entry: Kept = { key: info };
    if (
      same &&
      (cfg.collapseDuplicates === 'name' || same.some((o) => jaccard(terms(o), terms(entry)) >= cfg.duplicateJaccard))
    ) {
      copies.push(h);
      return false;
    }
    if (same) same.push(entry);
    else kept.set(info.name, [entry]);
    return true;
  });
  ranked.push(...copies);
  return ranked;
}
