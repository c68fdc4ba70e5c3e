// Top-k selection for the lexical index (lexical.ts): the bounded heap of the best hits, the choice of a
// strategy for a query, and the exhaustive strategy: term-at-a-time scoring of every posting into a dense
// accumulator (the reference). The other strategy, block-max MaxScore, is in maxscore.ts. Both return the same
// top-k: same scores (terms summed in query order in both) and the same tie order (score descending, then
// insertion order ascending).
import type { PostingsList } from './postings.js';

/** A query term's postings list and its query weight (idf × query-term weight). */
export interface QueryList {
  p: PostingsList;
  w: number;
}

/** Queries scored and postings visited by each strategy since start (read by bench/search-latency.ts). */
export const scoringStats = {
  exhaustive: { queries: 0, postings: 0 },
  pruned: { queries: 0, postings: 0 },
};

/** When a query is scored exhaustively (LexicalIndex's fields of the same names; see SearchOptions). */
export interface StrategyLimits {
  exhaustiveBelow: number;
  prunedMaxTerms: number;
}

/** Whether the exhaustive strategy should score these lists (else block-max MaxScore). */
export function preferExhaustive(qs: readonly QueryList[], limits: StrategyLimits): boolean {
  // Block-max MaxScore pays off on long lists, of similar lengths too (it walks only the lists that can
  // still reach the top-k, and skips the windows that cannot); on short lists, or with many terms (whose
  // summed bounds stay above the kth score for most documents), the dense accumulator costs less.
  let postings = 0;
  for (const q of qs) postings += q.p.length;
  return postings <= limits.exhaustiveBelow || qs.length > limits.prunedMaxTerms;
}

/** Max-heap ordering inverted: the root is the worst hit kept (lowest score, then highest ordinal). */
export class TopK {
  readonly scores: number[] = [];
  readonly docs: number[] = [];
  readonly matched: number[] = [];
  constructor(readonly k: number) {}
  get size(): number {
    return this.docs.length;
  }
  /** Worse = lower score, or equal score and later ordinal. */
  private worse(i: number, j: number): boolean {
    const a = this.scores[i]!;
    const b = this.scores[j]!;
    return a < b || (a === b && this.docs[i]! > this.docs[j]!);
  }
  /** The score a new document must beat (documents come in ascending ordinal, so ties lose). */
  threshold(): number {
    return this.docs.length < this.k ? -Infinity : this.scores[0]!;
  }
  /** Offers a document in any ordinal order; kept when it beats the worst. */
  offer(doc: number, score: number, matched: number): void {
    if (this.docs.length < this.k) {
      this.scores.push(score);
      this.docs.push(doc);
      this.matched.push(matched);
      this.up(this.docs.length - 1);
      return;
    }
    const s0 = this.scores[0]!;
    if (score < s0 || (score === s0 && doc > this.docs[0]!)) return;
    this.scores[0] = score;
    this.docs[0] = doc;
    this.matched[0] = matched;
    this.down(0);
  }
  private swap(i: number, j: number): void {
    // Plain temporaries: a destructuring swap allocates on a path taken for every hit kept.
    const { scores, docs, matched } = this;
    const s = scores[i]!;
    scores[i] = scores[j]!;
    scores[j] = s;
    const d = docs[i]!;
    docs[i] = docs[j]!;
    docs[j] = d;
    const m = matched[i]!;
    matched[i] = matched[j]!;
    matched[j] = m;
  }
  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  private down(i: number): void {
    const n = this.docs.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(l, m)) m = l;
      if (r < n && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  /** Best first. */
  sorted(): Array<{ doc: number; score: number; matched: number }> {
    return this.docs
      .map((doc, i) => ({ doc, score: this.scores[i]!, matched: this.matched[i]! }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

/** The exhaustive strategy, with its buffers. */
export class ScoreAccumulator {
  private acc = new Float64Array(0);
  private hits = new Uint8Array(0);
  private touched = new Int32Array(0);

  /** Bytes held by the score buffer. */
  get byteLength(): number {
    return this.acc.byteLength;
  }

  /**
   * The k best live documents of the lists, every posting scored. `ordinals`: one past the highest
   * ordinal; `alive` and `keys`: the index's liveness and key of each ordinal.
   */
  topK(
    qs: readonly QueryList[],
    k: number,
    ordinals: number,
    alive: Uint8Array,
    keys: Float64Array,
    filter?: (key: number) => boolean,
  ): TopK {
    // One accumulator reused across searches (cleared through `touched` afterwards): no per-query garbage.
    if (this.acc.length < ordinals) this.acc = new Float64Array(Math.max(ordinals, this.acc.length * 2));
    if (this.hits.length < this.acc.length) this.hits = new Uint8Array(this.acc.length);
    let bound = 0;
    for (const q of qs) bound += q.p.length;
    scoringStats.exhaustive.queries++;
    scoringStats.exhaustive.postings += bound;
    if (this.touched.length < Math.min(bound, ordinals))
      this.touched = new Int32Array(Math.min(Math.max(bound, this.touched.length * 2), ordinals));
    const acc = this.acc;
    const hits = this.hits;
    const touched = this.touched;
    let nt = 0;
    for (const { p, w } of qs) {
      const docs = p.docs;
      const imp = p.imp;
      for (let i = 0; i < p.length; i++) {
        const d = docs[i]!;
        if (!alive[d]) continue;
        if (hits[d] === 0) touched[nt++] = d;
        acc[d]! += w * imp[i]!;
        hits[d]!++;
      }
    }
    const top = new TopK(k);
    let threshold = -Infinity;
    for (let i = 0; i < nt; i++) {
      const d = touched[i]!;
      const score = acc[d]!;
      // Cheap rejection before the heap and the filter (ties are settled inside offer).
      if (score >= threshold && (!filter || filter(keys[d]!))) {
        top.offer(d, score, hits[d]!);
        threshold = top.threshold();
      }
      acc[d] = 0;
      hits[d] = 0;
    }
    return top;
  }
}
