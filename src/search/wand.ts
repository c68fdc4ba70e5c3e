// Block-max WAND, the lexical index's pruning top-k strategy (lexical.ts; the exhaustive one and the heap
// are in top-k.ts). One cursor per query term walks its postings list (postings.ts) in ordinal order; a
// document is scored only when the upper bounds of the terms that can reach it, first over whole lists and
// then over the blocks of 128 holding it, can beat the kth best so far, so whole blocks that cannot enter
// the top-k are skipped. It returns the same top-k as exhaustive scoring (same sums, same tie order).
import { BLOCK, type PostingsList } from './postings.js';
import { TopK, type QueryList } from './top-k.js';

interface Cursor {
  p: PostingsList;
  /** Index into the query's terms (scores are summed in this order). */
  qi: number;
  /** Query weight of the term (idf × query-term weight). */
  w: number;
  pos: number;
  doc: number;
  /** Upper bound of this term's score over the whole list. */
  ub: number;
  /** Shallow block pointer: the block examined by the last block-max check (only moves forward). */
  sb: number;
}

const END = 0x7fffffff;

function cursor(p: PostingsList, w: number, qi: number): Cursor {
  // Slack against rounding: a bound is w × max impact, a score sums such products in another order.
  const slack = 1 + 1e-9;
  let max = 0;
  if (p.blockLast === null) {
    for (let i = 0; i < p.length; i++) if (p.imp[i]! > max) max = p.imp[i]!;
  } else {
    const nb = Math.ceil(p.length / BLOCK);
    for (let b = 0; b < nb; b++) if (p.blockMax![b]! > max) max = p.blockMax![b]!;
  }
  return { p, qi, w, pos: 0, doc: p.docs[0]!, ub: w * max * slack, sb: 0 };
}

/** Moves c to its first posting with ordinal ≥ target: whole blocks skipped, then a binary search. */
function advance(c: Cursor, target: number): void {
  const p = c.p;
  if (c.doc >= target) return;
  let lo = c.pos + 1;
  let hi = p.length;
  if (p.blockLast !== null) {
    let b = (c.pos / BLOCK) | 0;
    const nb = Math.ceil(p.length / BLOCK);
    while (b < nb && p.blockLast[b]! < target) b++;
    if (b >= nb) {
      c.pos = p.length;
      c.doc = END;
      return;
    }
    lo = Math.max(lo, b * BLOCK);
    hi = Math.min(hi, (b + 1) * BLOCK);
  }
  // First index in [lo, hi) with docs[i] >= target (hi when none).
  const docs = p.docs;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  c.pos = lo;
  c.doc = lo < p.length ? docs[lo]! : END;
}

/** Upper bound of c's score for the block holding `doc` (≥ c's current document). */
function blockBound(c: Cursor, doc: number): number {
  const p = c.p;
  if (p.blockLast === null) return c.ub;
  let b = Math.max(c.sb, (c.pos / BLOCK) | 0);
  const nb = Math.ceil(p.length / BLOCK);
  while (b < nb && p.blockLast[b]! < doc) b++;
  c.sb = b;
  return b >= nb ? 0 : c.w * p.blockMax![b]! * (1 + 1e-9);
}

/** Last ordinal of the block found by the last blockBound (END past the list). */
function blockEnd(c: Cursor): number {
  const p = c.p;
  if (p.blockLast === null) return p.docs[p.length - 1]!;
  return c.sb >= Math.ceil(p.length / BLOCK) ? END : p.blockLast[c.sb]!;
}

/**
 * The k best live documents of the lists by block-max WAND. `alive` and `keys`: the index's liveness and
 * key of each ordinal.
 */
export function wandTopK(
  qs: readonly QueryList[],
  k: number,
  alive: Uint8Array,
  keys: Float64Array,
  filter?: (key: number) => boolean,
): TopK {
  const top = new TopK(k);
  const byQuery = qs.map(({ p, w }, qi) => cursor(p, w, qi));
  const order = [...byQuery].sort((a, b) => a.doc - b.doc);
  const n = order.length;
  // Cursors move forward only a few at a time: insertion sort keeps `order` sorted cheaply.
  const resort = () => {
    for (let i = 1; i < n; i++) {
      const c = order[i]!;
      let j = i - 1;
      while (j >= 0 && order[j]!.doc > c.doc) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = c;
    }
  };
  for (;;) {
    const threshold = top.threshold();
    // Pivot: the first cursor where the sum of bounds of it and the cursors before it can beat the kth.
    let acc = 0;
    let pivot = -1;
    for (let i = 0; i < n; i++) {
      const c = order[i]!;
      if (c.doc === END) break;
      acc += c.ub;
      if (acc >= threshold) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) break;
    const pivotDoc = order[pivot]!.doc;
    while (pivot + 1 < n && order[pivot + 1]!.doc === pivotDoc) pivot++;
    // Block-max check: the blocks holding pivotDoc may together be unable to beat the kth.
    if (threshold > -Infinity) {
      let blockSum = 0;
      for (let i = 0; i <= pivot; i++) blockSum += blockBound(order[i]!, pivotDoc);
      if (blockSum < threshold) {
        // Nothing up to the nearest of those blocks' ends can win: jump the cursors up to the pivot past
        // it, but not beyond the next cursor's document (which may start a better combination).
        let target = END;
        for (let i = 0; i <= pivot; i++) target = Math.min(target, blockEnd(order[i]!));
        target = target === END ? END : target + 1;
        if (pivot + 1 < n && order[pivot + 1]!.doc < target) target = order[pivot + 1]!.doc;
        if (target <= pivotDoc) target = pivotDoc + 1;
        for (let i = 0; i <= pivot; i++) advance(order[i]!, target);
        resort();
        continue;
      }
    }
    if (order[0]!.doc === pivotDoc) {
      if (alive[pivotDoc] && (!filter || filter(keys[pivotDoc]!))) {
        let score = 0;
        let matched = 0;
        for (const c of byQuery) {
          if (c.doc !== pivotDoc) continue;
          score += c.w * c.p.imp[c.pos]!;
          matched++;
        }
        if (score >= threshold) top.offer(pivotDoc, score, matched);
      }
      for (let i = 0; i <= pivot; i++) advance(order[i]!, pivotDoc + 1);
    } else {
      for (let i = 0; i < pivot; i++) if (order[i]!.doc < pivotDoc) advance(order[i]!, pivotDoc);
    }
    resort();
  }
  return top;
}
