// An in-memory inverted index with per-field term frequencies and lengths, scored by BM25F (per-field
// weights and length normalization, one saturation k1), OR semantics, with two top-k strategies:
// exhaustive term-at-a-time scoring (the reference) and block-max WAND (documents in blocks of 128 per
// term, each block with the maximum of its postings' impacts, so whole blocks that cannot enter the top-k
// are skipped). Both return the same top-k: same scores (terms summed in query order in both) and the same
// tie order (score descending, then insertion order ascending).
//
// Impacts: each posting stores its BM25F factor tfw / (k1 + tfw), tfw = Σ_f w_f·tf_f / (1 − b_f + b_f·len_f
// / avg_f), computed with the average field lengths of the last refresh. A query then costs one multiply
// per posting (idf × query weight × impact), and block bounds are exact maxima. The averages drift as
// items come and go; refreshImpacts() recomputes every impact when one moves by more than `driftLimit`
// (and on compaction and on setScoring), so scores stay within that drift of exact BM25F.
//
// Documents are identified by a caller's numeric key; each add gets a new internal ordinal (insertion
// order), so postings stay sorted and append-only. remove() marks the ordinal dead: it disappears from the
// next search; its postings are dropped by compact(), which runs by itself once dead postings pass a share.
// Document frequencies count dead documents until then, as in Lucene.
//
// Memory: per posting 4 bytes (ordinal) + 4 (impact) + 1 per field (tf, capped at 255, kept to recompute
// impacts); per 128 postings of a long list 8 bytes of block bounds; per document 4 bytes per field
// (length) + 9 bytes + a Map entry; per distinct term a Map entry and three typed arrays (~200 bytes).
// Typed arrays grow by doubling, so up to twice that is reserved.

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
  /** How many of the query's terms the document contains. */
  matched: number;
}

export interface SearchOptions {
  /** Only documents whose key passes are returned (and counted). */
  filter?: (key: number) => boolean;
  /**
   * true: score every posting (term at a time, the reference); false: block-max WAND; unset: exhaustive
   * when the query's lists hold at most `exhaustiveBelow` postings (dense accumulation beats pruning on
   * short lists), have similar lengths (`wandSkew`) or are many (`wandMaxTerms`), WAND otherwise. Both
   * give the same top-k.
   */
  exhaustive?: boolean;
}

const BLOCK = 128;
const MAX_TF = 255;

class Postings {
  docs: Int32Array;
  tfs: Uint8Array;
  imp: Float32Array;
  length = 0;
  /** Once the list passes one block: each block's last ordinal and its maximum impact. */
  blockLast: Int32Array | null = null;
  blockMax: Float32Array | null = null;

  constructor(readonly nf: number) {
    this.docs = new Int32Array(2);
    this.tfs = new Uint8Array(2 * nf);
    this.imp = new Float32Array(2);
  }

  push(doc: number, tf: ArrayLike<number>, impact: number): void {
    const nf = this.nf;
    if (this.length === this.docs.length) {
      const cap = this.docs.length * 2;
      const d = new Int32Array(cap);
      d.set(this.docs);
      this.docs = d;
      const t = new Uint8Array(cap * nf);
      t.set(this.tfs);
      this.tfs = t;
      const m = new Float32Array(cap);
      m.set(this.imp);
      this.imp = m;
    }
    const i = this.length++;
    this.docs[i] = doc;
    for (let f = 0; f < nf; f++) this.tfs[i * nf + f] = Math.min(MAX_TF, tf[f]!);
    this.imp[i] = impact;
    if (this.length === BLOCK + 1 && this.blockLast === null) this.buildBlocks();
    else if (this.blockLast !== null) this.addToBlock(i);
  }

  private ensureBlockCapacity(nb: number): void {
    if (this.blockLast !== null && this.blockLast.length >= nb) return;
    const cap = Math.max(4, nb * 2);
    const last = new Int32Array(cap);
    const max = new Float32Array(cap);
    if (this.blockLast !== null) {
      last.set(this.blockLast);
      max.set(this.blockMax!);
    }
    this.blockLast = last;
    this.blockMax = max;
  }

  private addToBlock(i: number): void {
    const b = (i / BLOCK) | 0;
    this.ensureBlockCapacity(b + 1);
    this.blockLast![b] = this.docs[i]!;
    if (i % BLOCK === 0 || this.imp[i]! > this.blockMax![b]!) this.blockMax![b] = this.imp[i]!;
  }

  buildBlocks(): void {
    this.blockLast = null;
    this.blockMax = null;
    if (this.length <= BLOCK) return;
    this.ensureBlockCapacity(Math.ceil(this.length / BLOCK));
    for (let i = 0; i < this.length; i++) this.addToBlock(i);
  }
}

/** Max-heap ordering inverted: the root is the worst hit kept (lowest score, then highest ordinal). */
class TopK {
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
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
    [this.docs[i], this.docs[j]] = [this.docs[j]!, this.docs[i]!];
    [this.matched[i], this.matched[j]] = [this.matched[j]!, this.matched[i]!];
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

interface Cursor {
  p: Postings;
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
  /** Average field lengths the stored impacts were computed with. */
  private impactAvg: Float64Array;
  private deadPostings = 0;
  private totalPostings = 0;
  private acc = new Float64Array(0);
  private hits = new Uint8Array(0);
  private touched = new Int32Array(0);
  /** Below this many postings in a query's lists, search() scores exhaustively (see SearchOptions). */
  exhaustiveBelow = 50_000;
  /** Above it, WAND is used only when the longest list is more than this many times the shortest… */
  wandSkew = 8;
  /** …and for at most this many terms (long queries: 1M units, WAND p50 39 ms vs 15 ms exhaustive). */
  wandMaxTerms = 3;
  /** compact() runs by itself when dead postings pass this share of all postings. */
  compactShare = 0.25;
  /** Impacts are recomputed when an average field length moves by more than this share. */
  driftLimit = 0.1;

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
    this.impactAvg = new Float64Array(this.nf).fill(1);
  }

  /** Changes weights, b and k1, and recomputes every impact (cost: one pass over the postings). */
  setScoring(fields: readonly FieldSpec[], k1: number): void {
    if (fields.length !== this.nf) throw new Error(`expected ${this.nf} fields`);
    const same = k1 === this.k1 && fields.every((f, i) => f.weight === this.weights[i] && f.b === this.bs[i]);
    this.fields = fields.map((f) => ({ ...f }));
    this.k1 = k1;
    this.weights = Float64Array.from(fields, (f) => f.weight);
    this.bs = Float64Array.from(fields, (f) => f.b);
    if (!same) this.refreshImpacts();
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

  private currentAvg(): Float64Array {
    const avg = new Float64Array(this.nf);
    for (let f = 0; f < this.nf; f++) avg[f] = this.aliveCount > 0 ? Math.max(1e-9, this.totalLen[f]! / this.aliveCount) : 1;
    return avg;
  }

  /** BM25F factor of one posting: tf row `tfs[off..off+nf)` of document `doc`, with the impact averages. */
  private impactOf(tfs: ArrayLike<number>, off: number, doc: number): number {
    const nf = this.nf;
    const avg = this.impactAvg;
    let tfw = 0;
    for (let f = 0; f < nf; f++) {
      const tf = tfs[off + f]!;
      if (tf === 0) continue;
      const b = this.bs[f]!;
      tfw += (this.weights[f]! * tf) / (1 - b + (b * this.lens[doc * nf + f]!) / avg[f]!);
    }
    return tfw / (this.k1 + tfw);
  }

  /** Recomputes every posting's impact with the current average lengths, and the block maxima. */
  refreshImpacts(): void {
    this.impactAvg = this.currentAvg();
    const nf = this.nf;
    for (const p of this.terms.values()) {
      for (let i = 0; i < p.length; i++) p.imp[i] = this.impactOf(p.tfs, i * nf, p.docs[i]!);
      p.buildBlocks();
    }
  }

  private drifted(): boolean {
    if (this.aliveCount === 0) return false;
    for (let f = 0; f < this.nf; f++) {
      const now = this.totalLen[f]! / this.aliveCount;
      const then = this.impactAvg[f]!;
      if (Math.abs(now - then) > this.driftLimit * Math.max(then, 1e-9) && Math.abs(now - then) > 0.5) return true;
    }
    return false;
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
    const row = new Uint8Array(nf);
    for (const [t, tf] of tfs) {
      let p = this.terms.get(t);
      if (!p) this.terms.set(t, (p = new Postings(nf)));
      for (let f = 0; f < nf; f++) row[f] = Math.min(MAX_TF, tf[f]!);
      p.push(ord, row, this.impactOf(row, 0, ord));
    }
    this.totalPostings += tfs.size;
    if (this.drifted()) this.refreshImpacts();
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
    else if (this.drifted()) this.refreshImpacts();
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

  /** Drops the postings of removed documents and recomputes impacts and block bounds; ordinals are kept. */
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
          const cap = Math.max(2, w);
          p.docs = p.docs.slice(0, cap);
          p.tfs = p.tfs.slice(0, cap * nf);
          p.imp = p.imp.slice(0, cap);
        }
      }
      total += w;
    }
    this.totalPostings = total;
    this.deadPostings = 0;
    this.refreshImpacts();
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

  /** Whether the live document `key` contains `term` (binary search in the term's postings). */
  contains(term: string, key: number): boolean {
    const ord = this.ordOf.get(key);
    const p = this.terms.get(term);
    if (ord === undefined || !p) return false;
    let lo = 0;
    let hi = p.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (p.docs[mid]! < ord) lo = mid + 1;
      else hi = mid;
    }
    return lo < p.length && p.docs[lo] === ord;
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

  /**
   * The k best live documents for the terms (OR), by BM25F score; ties by insertion order. Terms absent
   * from the index are ignored; a term repeated in `terms` counts twice.
   */
  search(terms: readonly QueryTerm[], k: number, options: SearchOptions = {}): Hit[] {
    if (k <= 0 || this.aliveCount === 0) return [];
    const qs: Array<{ p: Postings; w: number }> = [];
    for (const q of terms) {
      const p = this.terms.get(q.term);
      const w = (q.weight ?? 1) * this.idf(q.term);
      if (p && p.length > 0 && w > 0) qs.push({ p, w });
    }
    if (qs.length === 0) return [];
    // Match counts are kept in bytes.
    if (qs.length > 255) qs.length = 255;
    let exhaustive = options.exhaustive;
    if (exhaustive === undefined) {
      // Block-max WAND pays off when some list is much shorter than the longest (it skips most of the long
      // lists); with lists of similar lengths it visits nearly every posting at a higher cost per posting
      // than the dense accumulator (bench/search-lab/scale.ts: 1M units, two-word p99 25 ms vs 11 ms).
      let postings = 0;
      let shortest = Infinity;
      let longest = 0;
      for (const q of qs) {
        postings += q.p.length;
        shortest = Math.min(shortest, q.p.length);
        longest = Math.max(longest, q.p.length);
      }
      exhaustive = postings <= this.exhaustiveBelow || shortest * this.wandSkew > longest || qs.length > this.wandMaxTerms;
    }
    const top = exhaustive ? this.exhaustive(qs, k, options.filter) : this.wand(qs, k, options.filter);
    return top.sorted().map(({ doc, score, matched }) => ({ key: this.keys[doc]!, score, matched }));
  }

  private exhaustive(qs: Array<{ p: Postings; w: number }>, k: number, filter?: (key: number) => boolean): TopK {
    // One accumulator reused across searches (cleared through `touched` afterwards): no per-query garbage.
    if (this.acc.length < this.nextOrd) this.acc = new Float64Array(Math.max(this.nextOrd, this.acc.length * 2));
    if (this.hits.length < this.acc.length) this.hits = new Uint8Array(this.acc.length);
    let bound = 0;
    for (const q of qs) bound += q.p.length;
    if (this.touched.length < Math.min(bound, this.nextOrd)) this.touched = new Int32Array(Math.min(Math.max(bound, this.touched.length * 2), this.nextOrd));
    const acc = this.acc;
    const hits = this.hits;
    const alive = this.alive;
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
      if (score >= threshold && (!filter || filter(this.keys[d]!))) {
        top.offer(d, score, hits[d]!);
        threshold = top.threshold();
      }
      acc[d] = 0;
      hits[d] = 0;
    }
    return top;
  }

  private cursor(p: Postings, w: number, qi: number): Cursor {
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

  /** Upper bound of c's score for the block holding `doc` (≥ c's current document). */
  private blockBound(c: Cursor, doc: number): number {
    const p = c.p;
    if (p.blockLast === null) return c.ub;
    let b = Math.max(c.sb, (c.pos / BLOCK) | 0);
    const nb = Math.ceil(p.length / BLOCK);
    while (b < nb && p.blockLast[b]! < doc) b++;
    c.sb = b;
    return b >= nb ? 0 : c.w * p.blockMax![b]! * (1 + 1e-9);
  }

  /** Last ordinal of the block found by the last blockBound (END past the list). */
  private blockEnd(c: Cursor): number {
    const p = c.p;
    if (p.blockLast === null) return p.docs[p.length - 1]!;
    return c.sb >= Math.ceil(p.length / BLOCK) ? END : p.blockLast[c.sb]!;
  }

  private wand(qs: Array<{ p: Postings; w: number }>, k: number, filter?: (key: number) => boolean): TopK {
    const top = new TopK(k);
    const byQuery = qs.map(({ p, w }, qi) => this.cursor(p, w, qi));
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
          let matched = 0;
          for (const c of byQuery) {
            if (c.doc !== pivotDoc) continue;
            score += c.w * c.p.imp[c.pos]!;
            matched++;
          }
          if (score >= threshold) top.offer(pivotDoc, score, matched);
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
    let bytes = this.lens.byteLength + this.keys.byteLength + this.alive.byteLength + this.ordOf.size * 40 + this.acc.byteLength;
    for (const [t, p] of this.terms) {
      bytes += 200 + t.length * 2 + p.docs.byteLength + p.tfs.byteLength + p.imp.byteLength;
      if (p.blockLast) bytes += p.blockLast.byteLength + p.blockMax!.byteLength;
    }
    return bytes;
  }
}
