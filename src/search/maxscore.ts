// Block-max MaxScore, the lexical index's pruning top-k strategy (lexical.ts; the exhaustive one and the
// heap are in top-k.ts). Documents are taken in ordinal order, window by window: a window ends where the
// first of the blocks of 128 holding the lists' next postings ends (postings.ts), so inside it each list's
// score is bounded by its block's maximum impact. A window whose bounds together cannot beat the kth best
// so far is skipped whole. Otherwise the lists are split: the non-essential ones (the lowest bounds, whose
// sum cannot beat the kth alone) are only probed for documents that the essential ones bring, and only
// while the document can still win. A document offered to the heap has every list probed, and its score
// is summed in query order, so the top-k (scores, match counts, tie order) is the exhaustive one.
//
// Cursors are typed arrays indexed by list: no allocation per posting.
import { BLOCK, type PostingsList } from './postings.js';
import { scoringStats, TopK, type QueryList } from './top-k.js';

const END = 0x7fffffff;
/** Slack against rounding: a bound is w × max impact, a score sums such products in another order. */
const SLACK = 1 + 1e-9;
const SHIFT = Math.log2(BLOCK);

/** The largest impact of a list (from its block maxima once it has blocks). */
function maxImpact(p: PostingsList): number {
  let max = 0;
  if (p.blockMax === null) {
    for (let i = 0; i < p.length; i++) if (p.imp[i]! > max) max = p.imp[i]!;
  } else {
    const nb = (p.length + BLOCK - 1) >> SHIFT;
    for (let b = 0; b < nb; b++) if (p.blockMax[b]! > max) max = p.blockMax[b]!;
  }
  return max;
}

/**
 * First position ≥ `from` in `p` whose ordinal is ≥ `target` (`p.length` when none): whole blocks skipped
 * by their last ordinal, then a galloping search inside the block.
 */
function seek(p: PostingsList, from: number, target: number): number {
  const docs = p.docs;
  const n = p.length;
  if (from >= n || docs[from]! >= target) return from;
  let lo = from + 1;
  let hi = n;
  const last = p.blockLast;
  if (last !== null) {
    let b = from >> SHIFT;
    const nb = (n + BLOCK - 1) >> SHIFT;
    while (b < nb && last[b]! < target) b++;
    if (b >= nb) return n;
    lo = Math.max(lo, b << SHIFT);
    hi = Math.min(n, (b + 1) << SHIFT);
  }
  // Gallop from lo: the target is usually a few postings ahead.
  let step = 1;
  while (lo + step < hi && docs[lo + step - 1]! < target) {
    lo += step;
    step <<= 1;
  }
  if (lo + step < hi) hi = lo + step;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ordinals per window at most: the essential lists are summed over a window in these buffers. */
const WINDOW = 4096;
/** Each list's contribution (and whether it holds the document) by list and window offset, lists × window ≤ this. */
const CELLS = 65_536;
const acc = new Float64Array(WINDOW);
const mark = new Uint8Array(WINDOW);
const touched = new Int32Array(WINDOW);
const cellPart = new Float64Array(CELLS);
const cellHit = new Uint8Array(CELLS);

/**
 * The k best live documents of the lists by block-max MaxScore. `alive` and `keys`: the index's liveness
 * and key of each ordinal; `filter` on keys.
 */
export function maxScoreTopK(
  qs: readonly QueryList[],
  k: number,
  alive: Uint8Array,
  keys: Float64Array,
  filter?: (key: number) => boolean,
): TopK {
  const n = qs.length;
  const top = new TopK(k);
  const lists: PostingsList[] = qs.map((q) => q.p);
  const w = new Float64Array(n);
  const pos = new Int32Array(n);
  const cur = new Int32Array(n);
  /** Each list's bound over the whole list, and over the current window. */
  const ub = new Float64Array(n);
  const wm = new Float64Array(n);
  /** The current document's contribution from each list, and whether the list holds it. */
  const part = new Float64Array(n);
  const hit = new Uint8Array(n);
  /** Lists by window bound ascending: order[0..ne) are the non-essential ones. */
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = lists[i]!;
    w[i] = qs[i]!.w;
    cur[i] = p.length > 0 ? p.docs[0]! : END;
    ub[i] = w[i]! * maxImpact(p) * SLACK;
    order[i] = i;
  }
  let threshold = -Infinity;
  let visited = 0;
  const moveTo = (i: number, target: number): void => {
    const p = lists[i]!;
    const at = seek(p, pos[i]!, target);
    pos[i] = at;
    cur[i] = at < p.length ? p.docs[at]! : END;
  };
  // The window's split: how many lists are non-essential, and the sum of their window bounds.
  let ne = 0;
  let neSum = 0;

  /** Whether each list is essential in the current window, and the window's width. */
  const essential = new Uint8Array(n);
  const win = Math.min(WINDOW, Math.floor(CELLS / n));

  /**
   * A live document of the window (at offset `off`) that the essential lists hold, their contributions
   * in the window's cells: the non-essential lists probed, best bound first, while it can still beat the
   * kth; then its exact score (summed in query order) offered.
   */
  const consider = (d: number, off: number): void => {
    let bound = acc[off]! + neSum;
    for (let j = ne - 1; j >= 0; j--) {
      const i = order[j]!;
      hit[i] = 0;
      bound -= wm[i]!;
      if (cur[i]! < d) moveTo(i, d);
      if (cur[i] === d) {
        part[i] = w[i]! * lists[i]!.imp[pos[i]!]!;
        hit[i] = 1;
        bound += part[i]!;
        visited++;
      }
      if (bound * SLACK < threshold) return;
    }
    if (filter && !filter(keys[d]!)) return;
    let score = 0;
    let matched = 0;
    for (let i = 0, cell = off; i < n; i++, cell += win) {
      if (essential[i] === 1) {
        if (cellHit[cell] === 0) continue;
        score += cellPart[cell]!;
      } else {
        if (hit[i] === 0) continue;
        score += part[i]!;
      }
      matched++;
    }
    top.offer(d, score, matched);
    threshold = top.threshold();
  };
  const clear = (off: number): void => {
    acc[off] = 0;
    mark[off] = 0;
    for (let j = ne; j < n; j++) {
      const cell = order[j]! * win + off;
      cellPart[cell] = 0;
      cellHit[cell] = 0;
    }
  };

  let next = 0;
  for (;;) {
    // The window starts at the first posting at or past `next`, and ends with the first block end.
    let start = END;
    for (let i = 0; i < n; i++) {
      if (cur[i]! < next) moveTo(i, next);
      if (cur[i]! < start) start = cur[i]!;
    }
    if (start === END) break;
    let upTo = start + win - 1;
    for (let i = 0; i < n; i++) {
      if (cur[i] === END) continue;
      const p = lists[i]!;
      const end = p.blockLast === null ? p.docs[p.length - 1]! : p.blockLast[pos[i]! >> SHIFT]!;
      if (end < upTo) upTo = end;
    }
    next = upTo + 1;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const p = lists[i]!;
      wm[i] = cur[i]! > upTo ? 0 : p.blockMax === null ? ub[i]! : w[i]! * p.blockMax[pos[i]! >> SHIFT]! * SLACK;
      sum += wm[i]!;
    }
    if (sum < threshold) continue;
    // Insertion sort by window bound (few lists), then the non-essential prefix.
    for (let a = 1; a < n; a++) {
      const x = order[a]!;
      let b = a - 1;
      while (b >= 0 && wm[order[b]!]! > wm[x]!) {
        order[b + 1] = order[b]!;
        b--;
      }
      order[b + 1] = x;
    }
    ne = 0;
    neSum = 0;
    while (ne < n && neSum + wm[order[ne]!]! < threshold) neSum += wm[order[ne++]!]!;
    // The essential lists summed over the window, term at a time (cursors stay at the window's start).
    let nt = 0;
    for (let i = 0; i < n; i++) essential[i] = 0;
    for (let j = ne; j < n; j++) {
      const i = order[j]!;
      essential[i] = 1;
      const base = i * win;
      const p = lists[i]!;
      const docs = p.docs;
      const imp = p.imp;
      const wi = w[i]!;
      let at = pos[i]!;
      for (; at < p.length; at++) {
        const off = docs[at]! - start;
        if (off > upTo - start) break;
        if (mark[off] === 0) {
          mark[off] = 1;
          touched[nt++] = off;
        }
        const c = wi * imp[at]!;
        acc[off]! += c;
        cellPart[base + off] = c;
        cellHit[base + off] = 1;
      }
      visited += at - pos[i]!;
    }
    // Candidates in ordinal order (the cursors only move forward), each while it can still win.
    let nc = 0;
    for (let t = 0; t < nt; t++) {
      const off = touched[t]!;
      if (acc[off]! * SLACK + neSum >= threshold && alive[start + off]) touched[nc++] = off;
      else clear(off);
    }
    if (ne > 0 && ne < n - 1 && nc > 1) touched.subarray(0, nc).sort();
    for (let t = 0; t < nc; t++) {
      const off = touched[t]!;
      consider(start + off, off);
      clear(off);
    }
  }
  scoringStats.pruned.queries++;
  scoringStats.pruned.postings += visited;
  return top;
}
