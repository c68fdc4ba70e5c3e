// An in-memory inverted index with per-field term frequencies and lengths, scored by BM25F (per-field
// weights and length normalization, one saturation k1), OR semantics, with two top-k strategies:
// exhaustive term-at-a-time scoring (the reference) and block-max WAND (documents in blocks of 128 per
// term, each block with per-field upper bounds, so whole blocks that cannot enter the top-k are skipped).
// Both return the same top-k: same scores (terms summed in query order in both) and the same tie order
// (score descending, then insertion order ascending).
//
// Documents are identified by a caller's numeric key; each add gets a new internal ordinal (insertion
// order), so postings stay sorted and append-only. remove() marks the ordinal dead: it disappears from the
// next search; its postings are dropped by compact(), which runs by itself once dead postings pass a share.
// Document frequencies count dead documents until then, as in Lucene.
//
// Memory: per posting 4 bytes (ordinal) + 1 byte per field (tf, capped at 255); per 128 postings of a long
// list 4 + 5 bytes per field of block bounds; per document 4 bytes per field (length) + 9 bytes; per
// distinct term a Map entry and two typed arrays (~150 bytes).

export interface FieldSpec {
  name: string;
  /** BM25F weight of a term occurrence in this field. */
  weight: number;
  /** Length normalization in [0, 1]: 0 ignores the field's length, 1 divides fully by length / average. */
  b: number;
}

export interface LexicalConfig {
  fields: FieldSpec[];
  /** Saturation of the weighted term frequency. */
  k1: number;
}

export interface QueryTerm {
  term: string;
  /** Multiplies the term's BM25F score (query-term weighting); 1 by default. */
  weight?: number;
}

export interface Hit {
  key: number;
  score: number;
}

export interface SearchOptions {
  /** Only documents whose key passes are returned (and counted). */
  filter?: (key: number) => boolean;
  /**
   * true: score every posting (term at a time, the reference); false: block-max WAND; unset: exhaustive
   * when the query's lists hold at most `exhaustiveBelow` postings (dense accumulation beats pruning on
   * short lists), WAND otherwise. Both give the same top-k.
   */
  exhaustive?: boolean;
}

const BLOCK = 128;
const MAX_TF = 255;

class Postings {
  docs: Int32Array;
  tfs: Uint8Array;
  length = 0;
  // Block bounds, kept once the list passes one block: last ordinal, per-field max tf and min length
  // (of the documents with that field's tf > 0).
  blockLast: Int32Array | null = null;
  blockMaxTf: Uint8Array | null = null;
  blockMinLen: Uint32Array | null = null;

  constructor(readonly nf: number) {
    this.docs = new Int32Array(2);
    this.tfs = new Uint8Array(2 * nf);
  }

  push(doc: number, tf: ArrayLike<number>, lens: ArrayLike<number>): void {
    const nf = this.nf;
    if (this.length === this.docs.length) {
      const cap = this.docs.length * 2;
      const d = new Int32Array(cap);
      d.set(this.docs);
      this.docs = d;
      const t = new Uint8Array(cap * nf);
      t.set(this.tfs);
      this.tfs = t;
    }
    const i = this.length++;
    this.docs[i] = doc;
    for (let f = 0; f < nf; f++) this.tfs[i * nf + f] = Math.min(MAX_TF, tf[f]!);
    if (this.length === BLOCK + 1 && this.blockLast === null) this.buildBlocks(lens);
    else if (this.blockLast !== null) this.addToBlock(i, lens);
  }

  private ensureBlockCapacity(nb: number): void {
    if (this.blockLast !== null && this.blockLast.length >= nb) return;
    const cap = Math.max(4, nb * 2);
    const last = new Int32Array(cap);
    const maxTf = new Uint8Array(cap * this.nf);
    const minLen = new Uint32Array(cap * this.nf).fill(0xffffffff);
    if (this.blockLast !== null) {
      last.set(this.blockLast);
      maxTf.set(this.blockMaxTf!);
      minLen.set(this.blockMinLen!);
    }
    this.blockLast = last;
    this.blockMaxTf = maxTf;
    this.blockMinLen = minLen;
  }

  /** `lens(doc, f)` is read through a flat per-document array passed in by the index. */
  private addToBlock(i: number, lens: ArrayLike<number>): void {
    const nf = this.nf;
    const b = (i / BLOCK) | 0;
    this.ensureBlockCapacity(b + 1);
    const doc = this.docs[i]!;
    this.blockLast![b] = doc;
    for (let f = 0; f < nf; f++) {
      const tf = this.tfs[i * nf + f]!;
      if (tf === 0) continue;
      const j = b * nf + f;
      if (tf > this.blockMaxTf![j]!) this.blockMaxTf![j] = tf;
      const len = lens[doc * nf + f]!;
      if (len < this.blockMinLen![j]!) this.blockMinLen![j] = len;
    }
  }

  buildBlocks(lens: ArrayLike<number>): void {
    this.blockLast = null;
    this.blockMaxTf = null;
    this.blockMinLen = null;
    if (this.length <= BLOCK) return;
    this.ensureBlockCapacity(Math.ceil(this.length / BLOCK));
    for (let i = 0; i < this.length; i++) this.addToBlock(i, lens);
  }
}

/** Max-heap ordering inverted: the root is the worst hit kept (lowest score, then highest ordinal). */
class TopK {
  readonly scores: number[] = [];
  readonly docs: number[] = [];
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
  offer(doc: number, score: number): void {
    if (this.docs.length < this.k) {
      this.scores.push(score);
      this.docs.push(doc);
      this.up(this.docs.length - 1);
      return;
    }
    const s0 = this.scores[0]!;
    if (score < s0 || (score === s0 && doc > this.docs[0]!)) return;
    this.scores[0] = score;
    this.docs[0] = doc;
    this.down(0);
  }
  private swap(i: number, j: number): void {
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
    [this.docs[i], this.docs[j]] = [this.docs[j]!, this.docs[i]!];
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
  sorted(): Array<{ doc: number; score: number }> {
    return this.docs
      .map((doc, i) => ({ doc, score: this.scores[i]! }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

interface Cursor {
  p: Postings;
  /** Index into the query's terms (scores are summed in this order). */
  qi: number;
  pos: number;
  doc: number;
  /** Upper bound of this term's score over the whole list. */
  ub: number;
  /** Per-block upper bounds (null for a list of one block: then ub). */
  blockUb: Float64Array | null;
  /** Shallow block pointer: the block examined by the last block-max check (only moves forward). */
  sb: number;
}

const END = 0x7fffffff;

export class LexicalIndex {
  fields: readonly FieldSpec[];
  k1: number;
  private readonly nf: number;
  private weights: Float64Array;
  private bs: Float64Array;
  private readonly terms = new Map<string, Postings>();
  private lens: Uint32Array; // ordinal * nf + f
  private keys: Float64Array; // ordinal → key
  private alive: Uint8Array;
  private readonly ordOf = new Map<number, number>();
  private nextOrd = 0;
  private aliveCount = 0;
  private readonly totalLen: Float64Array;
  private deadPostings = 0;
  private totalPostings = 0;
  private acc = new Float64Array(0);
  /** Below this many postings in a query's lists, search() scores exhaustively (see SearchOptions). */
  exhaustiveBelow = 50_000;
  /** compact() runs by itself when dead postings pass this share of all postings. */
  compactShare = 0.25;

  constructor(config: LexicalConfig) {
    this.fields = config.fields.map((f) => ({ ...f }));
    this.k1 = config.k1;
    this.nf = config.fields.length;
    this.weights = Float64Array.from(config.fields, (f) => f.weight);
    this.bs = Float64Array.from(config.fields, (f) => f.b);
    this.lens = new Uint32Array(64 * this.nf);
    this.keys = new Float64Array(64);
    this.alive = new Uint8Array(64);
    this.totalLen = new Float64Array(this.nf);
  }

  /** Changes weights, b and k1 (query-time parameters: postings keep raw frequencies and lengths). */
  setScoring(fields: readonly FieldSpec[], k1: number): void {
    if (fields.length !== this.nf) throw new Error(`expected ${this.nf} fields`);
    this.fields = fields.map((f) => ({ ...f }));
    this.k1 = k1;
    this.weights = Float64Array.from(fields, (f) => f.weight);
    this.bs = Float64Array.from(fields, (f) => f.b);
  }

  /** Live documents. */
  get size(): number {
    return this.aliveCount;
  }

  get vocabularySize(): number {
    return this.terms.size;
  }

  has(key: number): boolean {
    return this.ordOf.has(key);
  }

  /**
   * Adds (or replaces) a document: `fieldTerms[f]` are the analyzed terms of field f, repeats counted as
   * term frequency.
   */
  add(key: number, fieldTerms: readonly (readonly string[])[]): void {
    if (fieldTerms.length !== this.nf) throw new Error(`expected ${this.nf} fields, got ${fieldTerms.length}`);
    if (this.ordOf.has(key)) this.remove(key);
    const ord = this.nextOrd++;
    if (ord >= this.keys.length) this.grow();
    const nf = this.nf;
    const tfs = new Map<string, Uint32Array>();
    for (let f = 0; f < nf; f++) {
      const terms = fieldTerms[f]!;
      this.lens[ord * nf + f] = terms.length;
      this.totalLen[f]! += terms.length;
      for (const t of terms) {
        let tf = tfs.get(t);
        if (!tf) tfs.set(t, (tf = new Uint32Array(nf)));
        tf[f]!++;
      }
    }
    this.keys[ord] = key;
    this.alive[ord] = 1;
    this.ordOf.set(key, ord);
    this.aliveCount++;
    for (const [t, tf] of tfs) {
      let p = this.terms.get(t);
      if (!p) this.terms.set(t, (p = new Postings(nf)));
      p.push(ord, tf, this.lens);
    }
    this.totalPostings += tfs.size;
  }

  /** Removes a document; it is gone from the next search. Unknown keys are ignored. */
  remove(key: number): boolean {
    const ord = this.ordOf.get(key);
    if (ord === undefined) return false;
    this.ordOf.delete(key);
    this.alive[ord] = 0;
    this.aliveCount--;
    for (let f = 0; f < this.nf; f++) this.totalLen[f]! -= this.lens[ord * this.nf + f]!;
    // The number of postings of a dead document is not kept; estimate it as the mean.
    this.deadPostings += this.totalPostings / Math.max(1, this.aliveCount + 1);
    if (this.deadPostings > this.compactShare * this.totalPostings && this.totalPostings > 10_000) this.compact();
    return true;
  }

  private grow(): void {
    const cap = this.keys.length * 2;
    const lens = new Uint32Array(cap * this.nf);
    lens.set(this.lens);
    this.lens = lens;
    const keys = new Float64Array(cap);
    keys.set(this.keys);
    this.keys = keys;
    const alive = new Uint8Array(cap);
    alive.set(this.alive);
    this.alive = alive;
  }

  /** Drops the postings of removed documents and recomputes block bounds; ordinals are kept. */
  compact(): void {
    const nf = this.nf;
    let total = 0;
    for (const [t, p] of this.terms) {
      let w = 0;
      for (let i = 0; i < p.length; i++) {
        const d = p.docs[i]!;
        if (!this.alive[d]) continue;
        p.docs[w] = d;
        for (let f = 0; f < nf; f++) p.tfs[w * nf + f] = p.tfs[i * nf + f]!;
        w++;
      }
      if (w === 0) {
        this.terms.delete(t);
        continue;
      }
      if (w < p.length) {
        p.length = w;
        if (p.docs.length > 4 * w) {
          p.docs = p.docs.slice(0, Math.max(2, w));
          p.tfs = p.tfs.slice(0, Math.max(2, w) * nf);
        }
        p.buildBlocks(this.lens);
      }
      total += w;
    }
    this.totalPostings = total;
    this.deadPostings = 0;
  }

  /**
   * For every term, the live documents (by insertion ordinal, 0..ordinalLimit) in which it occurs in any of
   * `fields`: the forward view the co-occurrence model is built from.
   */
  forEachTerm(fields: readonly number[], fn: (term: string, ordinals: number[]) => void): void {
    const nf = this.nf;
    for (const [t, p] of this.terms) {
      const ords: number[] = [];
      for (let i = 0; i < p.length; i++) {
        const d = p.docs[i]!;
        if (!this.alive[d]) continue;
        for (const f of fields) {
          if (p.tfs[i * nf + f]! > 0) {
            ords.push(d);
            break;
          }
        }
      }
      if (ords.length > 0) fn(t, ords);
    }
  }

  /** One past the highest ordinal given so far. */
  get ordinalLimit(): number {
    return this.nextOrd;
  }

  /** Documents containing the term (dead ones included until compaction). */
  docFreq(term: string): number {
    return this.terms.get(term)?.length ?? 0;
  }

  /** BM25 idf with the +1 inside the log (never negative). */
  idf(term: string): number {
    const df = this.docFreq(term);
    const n = Math.max(this.aliveCount, df);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private avgLens(): Float64Array {
    const avg = new Float64Array(this.nf);
    for (let f = 0; f < this.nf; f++) avg[f] = this.aliveCount > 0 ? Math.max(1e-9, this.totalLen[f]! / this.aliveCount) : 1;
    return avg;
  }

  /**
   * The k best live documents for the terms (OR), by BM25F score; ties by insertion order. Terms absent
   * from the index are ignored; a term repeated in `terms` counts twice.
   */
  search(terms: readonly QueryTerm[], k: number, options: SearchOptions = {}): Hit[] {
    if (k <= 0 || this.aliveCount === 0) return [];
    const avg = this.avgLens();
    const qs: Array<{ p: Postings; w: number }> = [];
    for (const q of terms) {
      const p = this.terms.get(q.term);
      const w = (q.weight ?? 1) * this.idf(q.term);
      if (p && p.length > 0 && w > 0) qs.push({ p, w });
    }
    if (qs.length === 0) return [];
    let exhaustive = options.exhaustive;
    if (exhaustive === undefined) {
      let postings = 0;
      for (const q of qs) postings += q.p.length;
      exhaustive = postings <= this.exhaustiveBelow;
    }
    const top = exhaustive ? this.exhaustive(qs, k, avg, options.filter) : this.wand(qs, k, avg, options.filter);
    return top.sorted().map(({ doc, score }) => ({ key: this.keys[doc]!, score }));
  }

  /** Saturated, weighted term frequency of posting i of p: the BM25F per-term factor before idf. */
  private termScore(p: Postings, i: number, avg: Float64Array): number {
    const nf = this.nf;
    const doc = p.docs[i]!;
    let tfw = 0;
    for (let f = 0; f < nf; f++) {
      const tf = p.tfs[i * nf + f]!;
      if (tf === 0) continue;
      const b = this.bs[f]!;
      tfw += (this.weights[f]! * tf) / (1 - b + (b * this.lens[doc * nf + f]!) / avg[f]!);
    }
    return tfw / (this.k1 + tfw);
  }

  private exhaustive(qs: Array<{ p: Postings; w: number }>, k: number, avg: Float64Array, filter?: (key: number) => boolean): TopK {
    // One accumulator reused across searches (cleared through `touched` afterwards): no per-query garbage.
    if (this.acc.length < this.nextOrd) this.acc = new Float64Array(Math.max(this.nextOrd, this.acc.length * 2));
    const acc = this.acc;
    const touched: number[] = [];
    for (const { p, w } of qs) {
      for (let i = 0; i < p.length; i++) {
        const d = p.docs[i]!;
        if (!this.alive[d]) continue;
        if (acc[d] === 0) touched.push(d);
        acc[d]! += w * this.termScore(p, i, avg);
      }
    }
    const top = new TopK(k);
    for (const d of touched) {
      if (!filter || filter(this.keys[d]!)) top.offer(d, acc[d]!);
      acc[d] = 0;
    }
    return top;
  }

  /** Upper bound of the per-term factor for a block (or a whole short list), from per-field bounds. */
  private boundFromFields(maxTf: ArrayLike<number>, minLen: ArrayLike<number>, off: number, avg: Float64Array): number {
    let tfw = 0;
    for (let f = 0; f < this.nf; f++) {
      const tf = maxTf[off + f]!;
      if (tf === 0) continue;
      const b = this.bs[f]!;
      tfw += (this.weights[f]! * tf) / (1 - b + (b * minLen[off + f]!) / avg[f]!);
    }
    return tfw / (this.k1 + tfw);
  }

  private cursor(p: Postings, w: number, qi: number, avg: Float64Array): Cursor {
    const nf = this.nf;
    // Slack against rounding: bounds are computed in a different order than scores.
    const slack = 1 + 1e-9;
    if (p.blockLast === null) {
      const maxTf = new Uint8Array(nf);
      const minLen = new Uint32Array(nf).fill(0xffffffff);
      for (let i = 0; i < p.length; i++) {
        const d = p.docs[i]!;
        for (let f = 0; f < nf; f++) {
          const tf = p.tfs[i * nf + f]!;
          if (tf === 0) continue;
          if (tf > maxTf[f]!) maxTf[f] = tf;
          const len = this.lens[d * nf + f]!;
          if (len < minLen[f]!) minLen[f] = len;
        }
      }
      const ub = w * this.boundFromFields(maxTf, minLen, 0, avg) * slack;
      return { p, qi, pos: 0, doc: p.docs[0]!, ub, blockUb: null, sb: 0 };
    }
    const nb = Math.ceil(p.length / BLOCK);
    const blockUb = new Float64Array(nb);
    let ub = 0;
    for (let b = 0; b < nb; b++) {
      const u = w * this.boundFromFields(p.blockMaxTf!, p.blockMinLen!, b * nf, avg) * slack;
      blockUb[b] = u;
      if (u > ub) ub = u;
    }
    return { p, qi, pos: 0, doc: p.docs[0]!, ub, blockUb, sb: 0 };
  }

  /** Moves c to its first posting with ordinal ≥ target: whole blocks skipped, then a binary search. */
  private advance(c: Cursor, target: number): void {
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

  /** Upper bound of c's score for the block holding `doc` (≥ c's current document), and that block's end. */
  private blockBound(c: Cursor, doc: number): number {
    const p = c.p;
    if (c.blockUb === null) return c.ub;
    let b = Math.max(c.sb, (c.pos / BLOCK) | 0);
    const nb = c.blockUb.length;
    while (b < nb && p.blockLast![b]! < doc) b++;
    c.sb = b;
    return b >= nb ? 0 : c.blockUb[b]!;
  }

  private blockEnd(c: Cursor): number {
    if (c.blockUb === null) return c.p.docs[c.p.length - 1]!;
    return c.sb >= c.blockUb.length ? END : c.p.blockLast![c.sb]!;
  }

  private wand(qs: Array<{ p: Postings; w: number }>, k: number, avg: Float64Array, filter?: (key: number) => boolean): TopK {
    const top = new TopK(k);
    const byQuery = qs.map(({ p, w }, qi) => this.cursor(p, w, qi, avg));
    const qw = qs.map((q) => q.w);
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
        for (let i = 0; i <= pivot; i++) blockSum += this.blockBound(order[i]!, pivotDoc);
        if (blockSum < threshold) {
          // Nothing up to the nearest of those blocks' ends can win: jump the cursors up to the pivot past
          // it, but not beyond the next cursor's document (which may start a better combination).
          let target = END;
          for (let i = 0; i <= pivot; i++) target = Math.min(target, this.blockEnd(order[i]!));
          target = target === END ? END : target + 1;
          if (pivot + 1 < n && order[pivot + 1]!.doc < target) target = order[pivot + 1]!.doc;
          if (target <= pivotDoc) target = pivotDoc + 1;
          for (let i = 0; i <= pivot; i++) this.advance(order[i]!, target);
          resort();
          continue;
        }
      }
      if (order[0]!.doc === pivotDoc) {
        if (this.alive[pivotDoc] && (!filter || filter(this.keys[pivotDoc]!))) {
          let score = 0;
          for (const c of byQuery) if (c.doc === pivotDoc) score += qw[c.qi]! * this.termScore(c.p, c.pos, avg);
          if (score >= threshold) top.offer(pivotDoc, score);
        }
        for (let i = 0; i <= pivot; i++) this.advance(order[i]!, pivotDoc + 1);
      } else {
        for (let i = 0; i < pivot; i++) if (order[i]!.doc < pivotDoc) this.advance(order[i]!, pivotDoc);
      }
      resort();
    }
    return top;
  }

  /** Live documents matching at least one term (OR), counted up to `cap`. */
  countMatches(terms: readonly string[], cap = Infinity, filter?: (key: number) => boolean): number {
    const lists = terms.map((t) => this.terms.get(t)).filter((p): p is Postings => !!p);
    if (lists.length === 0) return 0;
    const seen = lists.length === 1 ? null : new Uint8Array(this.nextOrd);
    let n = 0;
    for (const p of lists) {
      for (let i = 0; i < p.length; i++) {
        const d = p.docs[i]!;
        if (!this.alive[d] || (seen && seen[d])) continue;
        if (seen) seen[d] = 1;
        if (filter && !filter(this.keys[d]!)) continue;
        if (++n >= cap) return n;
      }
    }
    return n;
  }

  /** Approximate bytes held by the index's arrays (typed arrays at capacity; Map and object overheads estimated). */
  memoryBytes(): number {
    let bytes = this.lens.byteLength + this.keys.byteLength + this.alive.byteLength + this.ordOf.size * 40;
    for (const [t, p] of this.terms) {
      bytes += 150 + t.length * 2 + p.docs.byteLength + p.tfs.byteLength;
      if (p.blockLast) bytes += p.blockLast.byteLength + p.blockMaxTf!.byteLength + p.blockMinLen!.byteLength;
    }
    return bytes;
  }
}
