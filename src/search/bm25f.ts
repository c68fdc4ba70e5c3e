// BM25F impacts for the lexical index (lexical.ts): the per-field weights and length normalization, the
// saturation k1, and the average field lengths the stored impacts are computed with.
//
// Each posting stores its BM25F factor tfw / (k1 + tfw), tfw = Σ_f w_f·tf_f / (1 − b_f + b_f·len_f / avg_f),
// computed with the average field lengths of the last refresh. The factor lies in [0, 1], so it is kept
// as a 16-bit integer in units of 1/IMPACT_ONE (2 bytes a posting instead of 4; the rounding, under 1e-5,
// is far below the drift the averages are allowed). A query then costs one multiply per
// posting (idf × query weight × impact), and block bounds are exact maxima. The averages drift as items
// come and go; the index recomputes every impact when one moves by more than its `driftLimit` (and on
// compaction), so scores stay within that drift of exact BM25F.

/** An impact of 1 (the factor's upper bound) in the stored units. */
export const IMPACT_ONE = 0xffff;

/** A field's BM25F parameters (lexical.ts's FieldSpec). */
interface FieldScoring {
  weight: number;
  b: number;
}

export class Bm25fImpacts {
  private readonly weights: Float64Array;
  private readonly bs: Float64Array;
  /** Average field lengths the stored impacts were computed with. */
  private avg: Float64Array;

  constructor(
    fields: readonly FieldScoring[],
    /** Saturation of the weighted term frequency. */
    private readonly k1: number,
  ) {
    this.weights = Float64Array.from(fields, (f) => f.weight);
    this.bs = Float64Array.from(fields, (f) => f.b);
    this.avg = new Float64Array(fields.length).fill(1);
  }

  /** From now on, impacts use the current average lengths: `totalLen[f]` over `count` live documents. */
  rebase(totalLen: Float64Array, count: number): void {
    const nf = this.avg.length;
    const avg = new Float64Array(nf);
    for (let f = 0; f < nf; f++) avg[f] = count > 0 ? Math.max(1e-9, totalLen[f]! / count) : 1;
    this.avg = avg;
  }

  /** The average lengths impacts are computed with (a snapshot keeps them with the impacts). */
  get averages(): Float64Array {
    return this.avg.slice();
  }

  set averages(avg: Float64Array) {
    if (avg.length !== this.avg.length) throw new Error(`expected ${this.avg.length} averages`);
    this.avg = avg.slice();
  }

  /**
   * BM25F factor of one posting, in units of 1/IMPACT_ONE: tf row `tfs[off..off+nf)` of a document whose
   * field lengths are `lens[lo..lo+nf)`.
   */
  impact(tfs: ArrayLike<number>, off: number, lens: Uint32Array, lo: number): number {
    const avg = this.avg;
    const nf = avg.length;
    let tfw = 0;
    for (let f = 0; f < nf; f++) {
      const tf = tfs[off + f]!;
      if (tf === 0) continue;
      const b = this.bs[f]!;
      tfw += (this.weights[f]! * tf) / (1 - b + (b * lens[lo + f]!) / avg[f]!);
    }
    return Math.round((tfw / (this.k1 + tfw)) * IMPACT_ONE);
  }

  /** Whether a current average length (`totalLen[f]` over `count`) moved from the impacts' by more than the share `limit`. */
  drifted(totalLen: Float64Array, count: number, limit: number): boolean {
    if (count === 0) return false;
    for (let f = 0; f < this.avg.length; f++) {
      const now = totalLen[f]! / count;
      const then = this.avg[f]!;
      if (Math.abs(now - then) > limit * Math.max(then, 1e-9) && Math.abs(now - then) > 0.5) return true;
    }
    return false;
  }
}
