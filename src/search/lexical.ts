// An in-memory inverted index with per-field term frequencies and lengths, scored by BM25F (per-field
// weights and length normalization, one saturation k1), OR semantics, with two top-k strategies:
// exhaustive term-at-a-time scoring (the reference, top-k.ts) and block-max MaxScore (documents in blocks of
// 128 per term, each block with the maximum of its postings' impacts, so whole blocks that cannot enter
// the top-k are skipped; maxscore.ts). Both return the same top-k. The postings lists are in postings.ts.
//
// Impacts: each posting stores its BM25F factor, computed with the average field lengths of the last
// refresh (bm25f.ts); refreshImpacts() recomputes every impact when an average moves by more than
// `driftLimit` (and on compaction), so scores stay within that drift of exact BM25F.
//
// Documents are identified by a caller's numeric key; each add gets a new internal ordinal (insertion
// order), so postings stay sorted and append-only. remove() marks the ordinal dead: it disappears from the
// next search; its postings are dropped by compact(), which runs by itself once dead postings pass a share.
// Document frequencies count dead documents until then, as in Lucene. A term that only removed documents
// hold is an erased item's word: it is never saved (termLists), and leaves the vocabulary at the next
// sweep, which removals bring about (dropDeadTerms), or at compaction.
//
// Memory: the vocabulary and postings are in term-store.ts (a term seen once costs its text, ~24 bytes of
// text table and ~25 bytes of a shared pool; a longer list ~500 bytes of objects plus ~7 bytes a posting);
// the per-document columns in document-table.ts. Long lists grow as postings arrive (postings.ts); trim()
// gives back what growth left unused.
// What documents may add to the vocabulary is bounded (vocabulary-bounds.ts); reads are in lexical-query.ts.
import { Bm25fImpacts } from './bm25f.js';
import { DocumentTable } from './document-table.js';
import type { FieldSpec, Hit, LexicalConfig, LexicalHead, QueryTerm, SearchOptions } from './lexical-types.js';
import { checkList, putHead, takeHead, type HeadParts } from './lexical-head.js';
import {
  contains,
  countMatches,
  docFreq,
  forEachTerm,
  idf,
  matchLists,
  scoringPlan,
  topHits,
  type ScoringPlan,
} from './lexical-query.js';
import { MAX_TF, type Postings, type PostingsList } from './postings.js';
import { TermStore, type SavedList } from './term-store.js';
import { ScoreAccumulator } from './top-k.js';
import { inSlices } from './slices.js';
import { UNBOUNDED_TERMS, VocabularyBounds, type TermLimits, type VocabularyStatus } from './vocabulary-bounds.js';

export type { FieldSpec, LexicalHead, QueryTerm } from './lexical-types.js';
export type { ScoringPlan } from './lexical-query.js';
export { UNBOUNDED_TERMS, type TermLimits, type VocabularyStatus } from './vocabulary-bounds.js';

export class LexicalIndex {
  readonly fields: readonly FieldSpec[];
  private readonly nf: number;
  private readonly bm25f: Bm25fImpacts;
  private readonly terms: TermStore;
  private readonly docs: DocumentTable;
  private readonly bounds = new VocabularyBounds(this);
  private readonly parts: HeadParts;
  private deadPostings = 0;
  private totalPostings = 0;
  private readonly scorer = new ScoreAccumulator();
  /** Below this many postings in a query's lists, search() scores exhaustively (see SearchOptions). */
  exhaustiveBelow = 50_000;
  /**
   * Above it, MaxScore is used for at most this many terms (bench/search-latency.ts, 1M units: two
   * words 1.6 ms vs 2.9 ms of scoring, the two commonest words 19 vs 29 ms; natural-language questions,
   * 4-6 terms, 8.6 vs 7.4 ms: the dense accumulator stays ahead there).
   */
  prunedMaxTerms = 3;
  /** compact() runs by itself when dead postings pass this share of all postings. */
  compactShare = 0.25;
  /**
   * dropDeadTerms() runs by itself once removals since the last reach this share of the vocabulary (a
   * sweep walks the whole vocabulary, so it costs about as much per removal whatever the index's size).
   */
  sweepShare = 1 / 1024;
  private removedSinceSweep = 0;
  /** Impacts are recomputed when an average field length moves by more than this share. */
  driftLimit = 0.1;
  /** What documents may add to the vocabulary (vocabulary-bounds.ts). */
  limits: TermLimits = UNBOUNDED_TERMS;
  /** Whether memory is short (checked now and then while new terms arrive); then no new term is admitted. */
  memoryFull: () => boolean = () => false;

  constructor(config: LexicalConfig) {
    this.fields = config.fields.map((f) => ({ ...f }));
    this.nf = config.fields.length;
    this.terms = new TermStore(this.nf, config.shortLists);
    this.bm25f = new Bm25fImpacts(config.fields, config.k1);
    this.docs = new DocumentTable(this.nf);
    this.parts = { nf: this.nf, terms: this.terms, docs: this.docs, bm25f: this.bm25f, bounds: this.bounds };
  }

  /** Live documents. */
  get size(): number {
    return this.docs.aliveCount;
  }

  /** Postings held (those of removed documents included until compaction). */
  get postingsCount(): number {
    return this.totalPostings;
  }

  get vocabularySize(): number {
    return this.terms.size;
  }

  has(key: number): boolean {
    return this.docs.ordOf.has(key);
  }

  /** The live document's ordinal (undefined when it is not in the index). */
  ordinal(key: number): number | undefined {
    return this.docs.ordOf.get(key);
  }

  /** The key of an ordinal given so far. */
  keyOf(ord: number): number {
    return this.docs.keys[ord]!;
  }

  /** Recomputes every posting's impact with the current average lengths, and the block maxima. */
  refreshImpacts(): void {
    this.bm25f.rebase(this.docs.totalLen, this.docs.aliveCount);
    const nf = this.nf;
    this.terms.refreshImpacts((tfs, off, ord) => this.bm25f.impact(tfs, off, this.docs.lens, ord * nf));
  }

  private drifted(): boolean {
    return this.bm25f.drifted(this.docs.totalLen, this.docs.aliveCount, this.driftLimit);
  }

  /**
   * Adds (or replaces) a document: `fieldTerms[f]` are the analyzed terms of field f, repeats counted as
   * term frequency. `owner` names who the document is from (the per-owner bound). Answers how many of its
   * distinct terms were left out by the limits (0: all indexed).
   */
  add(key: number, fieldTerms: readonly (readonly string[])[], owner?: string): number {
    if (fieldTerms.length !== this.nf) throw new Error(`expected ${this.nf} fields, got ${fieldTerms.length}`);
    const docs = this.docs;
    if (docs.ordOf.has(key)) this.remove(key);
    const ord = docs.add(key, fieldTerms);
    const nf = this.nf;
    const tfs = new Map<string, Uint32Array>();
    for (let f = 0; f < nf; f++) {
      for (const t of fieldTerms[f]!) {
        let tf = tfs.get(t);
        if (!tf) tfs.set(t, (tf = new Uint32Array(nf)));
        tf[f]!++;
      }
    }
    const bounds = this.bounds;
    const ownerId = owner === undefined ? -1 : bounds.ownerId(owner);
    let slots = bounds.perDocument;
    let newSlots = bounds.newTermSlots(ownerId, this.terms.size);
    let refused = 0;
    const row = new Uint8Array(nf);
    for (const [t, tf] of tfs) {
      let id = this.terms.id(t);
      if (slots <= 0 || (id === undefined && newSlots <= 0)) {
        refused++;
        continue;
      }
      slots--;
      if (id === undefined) {
        newSlots--;
        id = this.terms.add(t, ownerId);
        bounds.termAdded(ownerId);
      }
      for (let f = 0; f < nf; f++) row[f] = Math.min(MAX_TF, tf[f]!);
      this.terms.push(id, ord, row, this.bm25f.impact(row, 0, docs.lens, ord * nf));
    }
    this.totalPostings += tfs.size - refused;
    bounds.refused(refused);
    if (this.drifted()) this.refreshImpacts();
    return refused;
  }

  /** The vocabulary's size against its bound, and what the limits left out. */
  vocabulary(): VocabularyStatus {
    return this.bounds.status(this.terms.size);
  }

  /** Terms of the vocabulary that `owner`'s documents brought in and that are still held. */
  ownerTermCount(owner: string): number {
    return this.bounds.ownerTermCount(owner);
  }

  /** Removes a document; it is gone from the next search. Unknown keys are ignored. */
  remove(key: number): boolean {
    if (!this.docs.remove(key)) return false;
    // The number of postings of a dead document is not kept; estimate it as the mean.
    this.deadPostings += this.totalPostings / Math.max(1, this.docs.aliveCount + 1);
    if (this.deadPostings > this.compactShare * this.totalPostings && this.totalPostings > 10_000) this.compact();
    else {
      if (++this.removedSinceSweep >= this.sweepShare * this.terms.size) this.dropDeadTerms();
      if (this.drifted()) this.refreshImpacts();
    }
    return true;
  }

  /**
   * Takes out of the vocabulary every term that only removed documents hold (their other postings stay
   * until compaction); answers how many. Document frequencies of the terms kept do not change.
   */
  dropDeadTerms(): number {
    const before = this.terms.size;
    const postings = this.terms.dropDead(this.docs.alive, (owner) => this.bounds.termDropped(owner));
    this.totalPostings -= postings;
    this.deadPostings = Math.max(0, this.deadPostings - postings);
    this.removedSinceSweep = 0;
    return before - this.terms.size;
  }

  /** Frees the postings lists' unused capacity (see Postings.trim); lists grow again as needed. */
  trim(): void {
    for (const p of this.terms.longLists()) p.trim();
  }

  /** The postings lists with arrays of their own (to trim them a slice at a time; short ones share a pool). */
  postingsLists(): Iterable<Postings> {
    return this.terms.longLists();
  }

  /**
   * Every term a live document holds, with its postings as saved (views: a snapshot writes them a slice at
   * a time). A term only removed documents hold is left out: an erased item's words never reach the disk.
   */
  *termLists(): IterableIterator<[string, SavedList]> {
    const alive = this.docs.alive;
    for (const [term, id] of this.terms.entries())
      if (this.terms.hasLive(id, alive)) yield [term, this.terms.saved(id)];
  }

  /** A copy of everything but the postings lists, now. */
  head(): LexicalHead {
    return takeHead(this.parts, this.deadPostings);
  }

  /**
   * Restores, into an empty index, a head saved by head(), then its lists one by one (restoreList), then
   * the key of each ordinal (restoreOrdinal).
   */
  restoreHead(h: LexicalHead): void {
    putHead(this.parts, h);
    this.deadPostings = h.deadPostings;
  }

  /** Puts back a term's saved list (copied; ordinals ascending). */
  restoreList(term: string, p: SavedList): void {
    checkList(this.parts, term, p);
    this.terms.restore(term, p);
    this.totalPostings += p.length;
    this.bounds.termAdded(p.owner);
  }

  restoreOrdinal(ord: number): void {
    this.docs.restoreOrdinal(ord);
  }

  /** Drops the postings of removed documents and recomputes impacts and block bounds; ordinals are kept. */
  compact(): void {
    this.totalPostings = this.terms.retainLive(this.docs.alive, (owner) => this.bounds.termDropped(owner));
    this.deadPostings = 0;
    this.removedSinceSweep = 0;
    this.refreshImpacts();
  }

  /**
   * For every term, the live documents (by insertion ordinal, 0..ordinalLimit) in which it occurs in any of
   * `fields`: the forward view the co-occurrence model is built from.
   */
  forEachTerm(fields: readonly number[], fn: (term: string, ordinals: number[]) => void): void {
    forEachTerm(this.terms, this.docs, fields, fn);
  }

  /** One past the highest ordinal given so far. */
  get ordinalLimit(): number {
    return this.docs.nextOrd;
  }

  /** Whether the live document `key` contains `term` (binary search in the term's postings). */
  contains(term: string, key: number): boolean {
    return contains(this.terms, this.docs, term, key);
  }

  /** Documents containing the term (dead ones included until compaction). */
  docFreq(term: string): number {
    return docFreq(this.terms, term);
  }

  /** BM25 idf with the +1 inside the log (never negative). */
  idf(term: string): number {
    return idf(this.terms, this.docs, term);
  }

  /**
   * The k best live documents for the terms (OR), by BM25F score; ties by insertion order. Terms absent
   * from the index are ignored; a term repeated in `terms` counts twice.
   */
  search(terms: readonly QueryTerm[], k: number, options: SearchOptions = {}): Hit[] {
    return topHits(this.terms, this.docs, this.scorer, this, terms, k, options);
  }

  /**
   * The lists search() would score for `terms`, and the strategy it would choose (null: none of the terms
   * is in the index): what a scoring worker is given instead (scoring-pool.ts).
   */
  plan(terms: readonly QueryTerm[], options: SearchOptions = {}): ScoringPlan | null {
    return scoringPlan(this.terms, this.docs, this, terms, options);
  }

  /** Each ordinal's liveness (in shared memory: a scoring worker reads it in place). */
  get alive(): Uint8Array {
    return this.docs.alive;
  }

  /** Each ordinal's key (in shared memory, as `alive`). */
  get keys(): Float64Array {
    return this.docs.keys;
  }

  /** The postings lists of the terms held (what countMatches counts; a scoring worker counts them too). */
  matchLists(terms: readonly string[]): PostingsList[] {
    return matchLists(this.terms, terms);
  }

  /** Live documents matching at least one term (OR), counted up to `cap`. */
  countMatches(terms: readonly string[], cap = Infinity, filter?: (key: number) => boolean): number {
    return countMatches(this.terms, this.docs, terms, cap, filter);
  }

  /** Approximate bytes held by the index's arrays (typed arrays at capacity; Map and object overheads estimated). */
  memoryBytes(): number {
    let bytes = this.itemBytes();
    for (const p of this.terms.longLists()) bytes += LIST_OBJECT_BYTES + p.byteLength;
    return bytes;
  }

  /** The same figure, walking the vocabulary in slices (at a million items it takes a noticeable while). */
  async memoryBytesInSlices(): Promise<number> {
    let bytes = this.itemBytes();
    await inSlices(this.terms.longLists(), (p) => (bytes += LIST_OBJECT_BYTES + p.byteLength));
    return bytes;
  }

  private itemBytes(): number {
    return this.docs.byteLength + this.scorer.byteLength + this.terms.poolBytes;
  }
}

/** A long list's objects apart from its arrays' bytes: the Postings, its typed arrays and map entry (measured). */
const LIST_OBJECT_BYTES = 500;
