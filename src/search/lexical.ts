// An in-memory inverted index with per-field term frequencies and lengths, scored by BM25F (per-field
// weights and length normalization, one saturation k1), OR semantics, with two top-k strategies:
// exhaustive term-at-a-time scoring (the reference, top-k.ts) and block-max WAND (documents in blocks of
// 128 per term, each block with the maximum of its postings' impacts, so whole blocks that cannot enter
// the top-k are skipped; wand.ts). Both return the same top-k. The postings lists are in postings.ts.
//
// Impacts: each posting stores its BM25F factor, computed with the average field lengths of the last
// refresh (bm25f.ts); refreshImpacts() recomputes every impact when an average moves by more than
// `driftLimit` (and on compaction and on setScoring), so scores stay within that drift of exact BM25F.
//
// Documents are identified by a caller's numeric key; each add gets a new internal ordinal (insertion
// order), so postings stay sorted and append-only. remove() marks the ordinal dead: it disappears from the
// next search; its postings are dropped by compact(), which runs by itself once dead postings pass a share.
// Document frequencies count dead documents until then, as in Lucene.
//
// Memory: the vocabulary and postings are in term-store.ts (a term seen once costs its Map entry and ~25
// bytes of a shared pool; a longer list ~500 bytes of objects plus ~13 bytes a posting); per document 4
// bytes per field (length) + 9 bytes + 4 bytes of key table (key-table.ts). Typed arrays grow by
// doubling, so up to twice that is reserved until trim().
//
// Bounds (TermLimits): a term new to the vocabulary costs far more than a posting of a known one, so what
// one document, one owner (an agent) and all of them together may add to the vocabulary is bounded; a
// document keeps the terms that fit (field by field: name first) and stays searchable by them. When the
// vocabulary is full, or `memoryFull` says the heap is, new terms are refused and `vocabularyFull` says so.
import { resized } from './typed-arrays.js';
import { Bm25fImpacts } from './bm25f.js';
import { countLive, MAX_TF, type Postings, type PostingsList } from './postings.js';
import { KeyTable } from './key-table.js';
import { TermStore, type SavedList } from './term-store.js';
import { preferExhaustive, ScoreAccumulator, type QueryList } from './top-k.js';
import { inSlices } from './slices.js';
import { wandTopK } from './wand.js';

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
  /** Postings a term keeps in the shared pool, at most (term-store.ts; 0: every list has arrays of its own). */
  shortLists?: number;
}

export interface QueryTerm {
  term: string;
  /** Multiplies the term's BM25F score (query-term weighting); 1 by default. */
  weight?: number;
}

/** What documents may add to the vocabulary (see the header). */
export interface TermLimits {
  /** Distinct terms one document has indexed, at most. */
  perDocument: number;
  /** Of those, terms new to the vocabulary. */
  newPerDocument: number;
  /** Terms of the vocabulary that one owner's documents brought in and that are still held. */
  perOwner: number;
  /** Terms in the vocabulary. */
  total: number;
}

export const UNBOUNDED_TERMS: TermLimits = {
  perDocument: Infinity,
  newPerDocument: Infinity,
  perOwner: Infinity,
  total: Infinity,
};

/** Terms refused so far, and whether the vocabulary is full now. */
export interface VocabularyStatus {
  terms: number;
  limit: number;
  /** Documents that had terms left out, and how many terms in all (since the index was made). */
  documentsCut: number;
  termsRefused: number;
  /** New terms are refused: the vocabulary reached its bound, or memory ran short. */
  full: false | 'terms' | 'memory';
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

/** A LexicalIndex's state apart from its postings lists (snapshot.ts saves and restores it). */
export interface LexicalHead {
  nextOrd: number;
  totalLen: number[];
  averages: number[];
  deadPostings: number;
  documentsCut: number;
  termsRefused: number;
  /** Owner names by owner id. */
  owners: string[];
  /** Copies, `nextOrd` long (lens: nf per ordinal). */
  lens: Uint32Array;
  keys: Float64Array;
  alive: Uint8Array;
}

export class LexicalIndex {
  fields: readonly FieldSpec[];
  private readonly nf: number;
  private readonly bm25f: Bm25fImpacts;
  private readonly terms: TermStore;
  private lens: Uint32Array; // ordinal * nf + f
  private keys: Float64Array; // ordinal → key
  private alive: Uint8Array;
  private readonly ordOf = new KeyTable();
  private nextOrd = 0;
  private aliveCount = 0;
  private readonly totalLen: Float64Array;
  private deadPostings = 0;
  private totalPostings = 0;
  private readonly scorer = new ScoreAccumulator();
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
  limits: TermLimits = UNBOUNDED_TERMS;
  /** Whether memory is short (checked now and then while new terms arrive); then no new term is admitted. */
  memoryFull: () => boolean = () => false;
  private readonly ownerIds = new Map<string, number>();
  private readonly ownerTerms: number[] = [];
  private memoryChecks = 0;
  private memoryShort = false;
  private documentsCut = 0;
  private termsRefused = 0;

  constructor(config: LexicalConfig) {
    this.fields = config.fields.map((f) => ({ ...f }));
    this.nf = config.fields.length;
    this.terms = new TermStore(this.nf, config.shortLists);
    this.bm25f = new Bm25fImpacts(config.fields, config.k1);
    this.lens = new Uint32Array(64 * this.nf);
    this.keys = new Float64Array(64);
    this.alive = new Uint8Array(64);
    this.totalLen = new Float64Array(this.nf);
  }

  /** Saturation of the weighted term frequency. */
  get k1(): number {
    return this.bm25f.k1;
  }

  set k1(k1: number) {
    this.bm25f.k1 = k1;
  }

  /** Changes weights, b and k1, and recomputes every impact (cost: one pass over the postings). */
  setScoring(fields: readonly FieldSpec[], k1: number): void {
    if (fields.length !== this.nf) throw new Error(`expected ${this.nf} fields`);
    const changed = this.bm25f.set(fields, k1);
    this.fields = fields.map((f) => ({ ...f }));
    if (changed) this.refreshImpacts();
  }

  /** Live documents. */
  get size(): number {
    return this.aliveCount;
  }

  /** Postings held (those of removed documents included until compaction). */
  get postingsCount(): number {
    return this.totalPostings;
  }

  get vocabularySize(): number {
    return this.terms.size;
  }

  has(key: number): boolean {
    return this.ordOf.has(key);
  }

  /** The live document's ordinal (undefined when it is not in the index). */
  ordinal(key: number): number | undefined {
    return this.ordOf.get(key);
  }

  /** The key of an ordinal given so far. */
  keyOf(ord: number): number {
    return this.keys[ord]!;
  }

  /** Recomputes every posting's impact with the current average lengths, and the block maxima. */
  refreshImpacts(): void {
    this.bm25f.rebase(this.totalLen, this.aliveCount);
    const nf = this.nf;
    this.terms.refreshImpacts((tfs, off, ord) => this.bm25f.impact(tfs, off, this.lens, ord * nf));
  }

  private drifted(): boolean {
    return this.bm25f.drifted(this.totalLen, this.aliveCount, this.driftLimit);
  }

  /**
   * Adds (or replaces) a document: `fieldTerms[f]` are the analyzed terms of field f, repeats counted as
   * term frequency. `owner` names who the document is from (the per-owner bound). Answers how many of its
   * distinct terms were left out by the limits (0: all indexed).
   */
  add(key: number, fieldTerms: readonly (readonly string[])[], owner?: string): number {
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
    const ownerId = owner === undefined ? -1 : this.ownerId(owner);
    let slots = this.limits.perDocument;
    let newSlots = this.newTermSlots(ownerId);
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
        if (ownerId >= 0) this.ownerTerms[ownerId]!++;
      }
      for (let f = 0; f < nf; f++) row[f] = Math.min(MAX_TF, tf[f]!);
      this.terms.push(id, ord, row, this.bm25f.impact(row, 0, this.lens, ord * nf));
    }
    this.totalPostings += tfs.size - refused;
    if (refused > 0) {
      this.documentsCut++;
      this.termsRefused += refused;
    }
    if (this.drifted()) this.refreshImpacts();
    return refused;
  }

  /** How many terms new to the vocabulary a document of this owner may bring now. */
  private newTermSlots(ownerId: number): number {
    const { newPerDocument, perOwner, total } = this.limits;
    // The heap is looked at every 64 documents: cheap, and often enough to stop well before it runs out.
    if (this.memoryChecks++ % 64 === 0) this.memoryShort = this.memoryFull();
    if (this.memoryShort) return 0;
    const ownerLeft = ownerId >= 0 ? perOwner - this.ownerTerms[ownerId]! : Infinity;
    return Math.max(0, Math.min(newPerDocument, ownerLeft, total - this.terms.size));
  }

  private ownerId(owner: string): number {
    let id = this.ownerIds.get(owner);
    if (id === undefined) {
      id = this.ownerTerms.length;
      this.ownerIds.set(owner, id);
      this.ownerTerms.push(0);
    }
    return id;
  }

  /** The vocabulary's size against its bound, and what the limits left out. */
  vocabulary(): VocabularyStatus {
    const full = this.memoryShort ? 'memory' : this.terms.size >= this.limits.total ? 'terms' : false;
    return {
      terms: this.terms.size,
      limit: this.limits.total,
      documentsCut: this.documentsCut,
      termsRefused: this.termsRefused,
      full,
    };
  }

  /** Terms of the vocabulary that `owner`'s documents brought in and that are still held. */
  ownerTermCount(owner: string): number {
    const id = this.ownerIds.get(owner);
    return id === undefined ? 0 : this.ownerTerms[id]!;
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
    this.lens = resized(this.lens, cap * this.nf);
    this.keys = resized(this.keys, cap);
    this.alive = resized(this.alive, cap);
  }

  /** Frees the postings lists' unused capacity (see Postings.trim); lists grow again as needed. */
  trim(): void {
    for (const p of this.terms.longLists()) p.trim();
  }

  /** The postings lists with arrays of their own (to trim them a slice at a time; short ones share a pool). */
  postingsLists(): Iterable<Postings> {
    return this.terms.longLists();
  }

  /** Every term with its postings as saved (views: a snapshot writes them a slice at a time). */
  *termLists(): IterableIterator<[string, SavedList]> {
    for (const [term, id] of this.terms.entries()) yield [term, this.terms.saved(id)];
  }

  /** A copy of everything but the postings lists, now. */
  head(): LexicalHead {
    const n = this.nextOrd;
    return {
      nextOrd: n,
      totalLen: [...this.totalLen],
      averages: [...this.bm25f.averages],
      deadPostings: this.deadPostings,
      documentsCut: this.documentsCut,
      termsRefused: this.termsRefused,
      owners: [...this.ownerIds.keys()],
      lens: this.lens.slice(0, n * this.nf),
      keys: this.keys.slice(0, n),
      alive: this.alive.slice(0, n),
    };
  }

  /**
   * Restores, into an empty index, a head saved by head(), then its lists one by one (restoreList), then
   * the key of each ordinal (restoreOrdinal).
   */
  restoreHead(h: LexicalHead): void {
    if (this.nextOrd !== 0 || this.terms.size !== 0) throw new Error('restoring into an index that is not empty');
    const nf = this.nf;
    if (
      h.lens.length !== h.nextOrd * nf ||
      h.keys.length !== h.nextOrd ||
      h.alive.length !== h.nextOrd ||
      h.totalLen.length !== nf
    )
      throw new Error('a lexical head of the wrong shape');
    const cap = Math.max(64, h.nextOrd);
    this.lens = new Uint32Array(cap * nf);
    this.lens.set(h.lens);
    this.keys = new Float64Array(cap);
    this.keys.set(h.keys);
    this.alive = new Uint8Array(cap);
    this.alive.set(h.alive);
    this.nextOrd = h.nextOrd;
    this.totalLen.set(h.totalLen);
    this.bm25f.averages = Float64Array.from(h.averages);
    this.deadPostings = h.deadPostings;
    this.documentsCut = h.documentsCut;
    this.termsRefused = h.termsRefused;
    for (const owner of h.owners) this.ownerId(owner);
  }

  /** Puts back a term's saved list (copied; ordinals ascending). */
  restoreList(term: string, p: SavedList): void {
    const n = p.length;
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) sorted = p.docs[i - 1]! < p.docs[i]!;
    if (
      !sorted ||
      p.docs.length < n ||
      p.tfs.length < n * this.nf ||
      p.imp.length < n ||
      (n > 0 && (p.docs[0]! < 0 || p.docs[n - 1]! >= this.nextOrd)) ||
      p.owner >= this.ownerTerms.length ||
      this.terms.id(term) !== undefined
    )
      throw new Error(`a postings list of the wrong shape: ${term}`);
    this.terms.restore(term, p);
    this.totalPostings += n;
    if (p.owner >= 0) this.ownerTerms[p.owner]!++;
  }

  restoreOrdinal(ord: number): void {
    if (this.alive[ord] !== 1) return;
    this.ordOf.set(this.keys[ord]!, ord);
    this.aliveCount++;
  }

  /** Drops the postings of removed documents and recomputes impacts and block bounds; ordinals are kept. */
  compact(): void {
    this.totalPostings = this.terms.retainLive(this.alive, (owner) => {
      if (owner >= 0) this.ownerTerms[owner]!--;
    });
    this.deadPostings = 0;
    this.refreshImpacts();
  }

  /**
   * For every term, the live documents (by insertion ordinal, 0..ordinalLimit) in which it occurs in any of
   * `fields`: the forward view the co-occurrence model is built from.
   */
  forEachTerm(fields: readonly number[], fn: (term: string, ordinals: number[]) => void): void {
    for (const [t, id] of this.terms.entries()) {
      const ords = this.terms.liveOrdinals(id, fields, this.alive);
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
    const id = this.terms.id(term);
    if (ord === undefined || id === undefined) return false;
    return this.terms.includes(id, ord);
  }

  /** Documents containing the term (dead ones included until compaction). */
  docFreq(term: string): number {
    const id = this.terms.id(term);
    return id === undefined ? 0 : this.terms.length(id);
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
    const qs: QueryList[] = [];
    for (const q of terms) {
      const id = this.terms.id(q.term);
      const w = (q.weight ?? 1) * this.idf(q.term);
      if (id !== undefined && this.terms.length(id) > 0 && w > 0) qs.push({ p: this.terms.list(id), w });
    }
    if (qs.length === 0) return [];
    // Match counts are kept in bytes.
    if (qs.length > 255) qs.length = 255;
    const exhaustive = options.exhaustive === undefined ? preferExhaustive(qs, this) : options.exhaustive;
    const top = exhaustive
      ? this.scorer.topK(qs, k, this.nextOrd, this.alive, this.keys, options.filter)
      : wandTopK(qs, k, this.alive, this.keys, options.filter);
    return top.sorted().map(({ doc, score, matched }) => ({ key: this.keys[doc]!, score, matched }));
  }

  /** Live documents matching at least one term (OR), counted up to `cap`. */
  countMatches(terms: readonly string[], cap = Infinity, filter?: (key: number) => boolean): number {
    const lists: PostingsList[] = [];
    for (const t of terms) {
      const id = this.terms.id(t);
      if (id !== undefined) lists.push(this.terms.list(id));
    }
    return countLive(lists, this.nextOrd, this.alive, this.keys, cap, filter);
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
    return (
      this.lens.byteLength +
      this.keys.byteLength +
      this.alive.byteLength +
      this.ordOf.byteLength +
      this.scorer.byteLength +
      this.terms.poolBytes
    );
  }
}

/** A long list's objects apart from its arrays' bytes: the Postings, its typed arrays and map entry (measured). */
const LIST_OBJECT_BYTES = 500;
