// One term's postings list in the lexical index (lexical.ts): the documents that contain the term, by
// insertion ordinal (ascending, append-only), with their per-field term frequencies and BM25F impacts in
// typed arrays that grow by doubling; and, once the list passes one block, each block's last ordinal and
// maximum impact (the bounds block-max MaxScore skips by, maxscore.ts). Also the list-level operations the index
// needs: compaction, membership, the live ordinals of some fields, counting matches, memory.
//
// Memory: per posting 4 bytes (ordinal) + 2 (impact, bm25f.ts) + the term frequencies (capped at 255, kept to
// recompute impacts), packed 2 bits a field (packed-tfs.ts: one byte for four fields, plus a side-table
// row for the few postings with a frequency of three or more); per 128 postings 6 bytes of block bounds.
// A list of SHARED_FROM postings or more keeps what scoring reads (ordinals, impacts, block bounds) in
// shared memory, so that a scoring worker reads it in place (scoring-pool.ts); shorter ones are copied.

import { column, grownCapacity, isShared, resized } from './typed-arrays.js';
import { PackedTfs, type PackedRows } from './packed-tfs.js';

export const BLOCK = 128;
export const MAX_TF = 255;
/** Lists with room for this many postings or more are in shared memory (see above). */
export const SHARED_FROM = 4096;
const sharedAt = (capacity: number) => capacity >= SHARED_FROM;

/** What scoring reads of a postings list: a Postings, or a view of a short list in the shared pool (term-store.ts). */
export interface PostingsList {
  readonly docs: Int32Array;
  readonly imp: Uint16Array;
  readonly length: number;
  /** Once the list passes one block: each block's last ordinal and its maximum impact. */
  readonly blockLast: Int32Array | null;
  readonly blockMax: Uint16Array | null;
}

export class Postings implements PostingsList {
  docs: Int32Array;
  tfs: PackedTfs;
  imp: Uint16Array;
  length = 0;
  /** Once the list passes one block: each block's last ordinal and its maximum impact. */
  blockLast: Int32Array | null = null;
  blockMax: Uint16Array | null = null;

  constructor(readonly nf: number) {
    this.docs = new Int32Array(2);
    this.tfs = new PackedTfs(nf, 2);
    this.imp = new Uint16Array(2);
  }

  /**
   * A list from saved arrays (a snapshot; copied): `docs` ascending, `tfs` their packed term frequencies
   * (checked by the caller), `imp` the impacts. Without spare room (see grownCapacity, typed-arrays.ts).
   */
  static restored(nf: number, docs: Int32Array, tfs: PackedRows, imp: Uint16Array): Postings {
    if (imp.length !== docs.length) throw new Error('postings arrays of different lengths');
    const p = new Postings(nf);
    const cap = docs.length;
    p.docs = column(Int32Array, cap, sharedAt(cap));
    p.docs.set(docs);
    p.tfs = PackedTfs.restored(nf, tfs, docs.length, cap);
    p.imp = column(Uint16Array, cap, sharedAt(cap));
    p.imp.set(imp);
    p.length = docs.length;
    p.buildBlocks();
    return p;
  }

  /** Appends a posting: `tf` its nf term frequencies (at most MAX_TF each). */
  push(doc: number, tf: ArrayLike<number>, impact: number): void {
    if (this.length === this.docs.length) {
      // Settled (trimmed or restored, tracked by its frequencies): it grows by a small share from now on.
      const cap = grownCapacity(this.docs.length, this.tfs.settled);
      this.docs = resized(this.docs, cap, sharedAt(cap));
      this.tfs.resize(cap);
      this.imp = resized(this.imp, cap, sharedAt(cap));
    }
    const i = this.length++;
    this.docs[i] = doc;
    this.tfs.set(i, tf);
    this.imp[i] = impact;
    if (this.length === BLOCK + 1 && this.blockLast === null) this.buildBlocks();
    else if (this.blockLast !== null) this.addToBlock(i);
  }

  /** Room for `nb` blocks: twice that when it grows, exactly that (`exact`) when the list is built whole. */
  private ensureBlockCapacity(nb: number, exact = false): void {
    if (this.blockLast !== null && this.blockLast.length >= nb) return;
    const cap = exact ? nb : Math.max(4, nb * 2);
    const shared = isShared(this.docs);
    const last = column(Int32Array, cap, shared);
    const max = column(Uint16Array, cap, shared);
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
    this.ensureBlockCapacity(Math.ceil(this.length / BLOCK), true);
    for (let i = 0; i < this.length; i++) this.addToBlock(i);
  }

  /** Gives back the room growth left unused (after a bulk build): the list's arrays are then its length. */
  trim(): void {
    this.tfs.settled = true;
    const cap = Math.max(2, this.length);
    if (this.docs.length > cap) {
      this.docs = resized(this.docs, cap, sharedAt(cap));
      this.tfs.resize(cap);
      this.imp = resized(this.imp, cap, sharedAt(cap));
    }
    const nb = Math.ceil(this.length / BLOCK);
    if (this.blockLast !== null && (this.blockLast.length > nb || isShared(this.blockLast) !== isShared(this.docs))) {
      this.blockLast = resized(this.blockLast, nb, isShared(this.docs));
      this.blockMax = resized(this.blockMax!, nb, isShared(this.docs));
    }
  }

  /**
   * Keeps only the postings of live documents (impacts and block bounds are left for the caller to
   * recompute); frees most of the arrays when the list shrank to under a quarter. Returns the postings
   * kept (the list is left untouched when none is).
   */
  retainLive(alive: Uint8Array): number {
    let w = 0;
    for (let i = 0; i < this.length; i++) if (alive[this.docs[i]!]) w++;
    if (w === 0 || w === this.length) return w;
    const docs = this.docs;
    this.tfs.retain(this.length, (i) => alive[docs[i]!] === 1);
    w = 0;
    for (let i = 0; i < this.length; i++) {
      const d = docs[i]!;
      if (alive[d]) docs[w++] = d;
    }
    this.length = w;
    if (this.docs.length > 4 * w) {
      const cap = Math.max(2, w);
      this.docs = resized(this.docs, cap, sharedAt(cap));
      this.tfs.resize(cap);
      this.imp = resized(this.imp, cap, sharedAt(cap));
    }
    return w;
  }

  /** Recomputes every impact with `impact(row, ordinal)` (the posting's nf term frequencies), and the block bounds. */
  refreshImpacts(impact: (row: Uint8Array, ord: number) => number): void {
    const row = new Uint8Array(this.nf);
    for (let i = 0; i < this.length; i++) this.imp[i] = impact(this.tfs.row(i, row), this.docs[i]!);
    this.buildBlocks();
  }

  /** Posting `i`'s term frequencies, into `out` (nf long). */
  row(i: number, out: Uint8Array): Uint8Array {
    return this.tfs.row(i, out);
  }

  /** The live documents whose term frequency is positive in any of `fields`, ascending. */
  liveOrdinals(fields: readonly number[], alive: Uint8Array): number[] {
    const ords: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const d = this.docs[i]!;
      if (!alive[d]) continue;
      for (const f of fields) {
        if (this.tfs.positive(i, f)) {
          ords.push(d);
          break;
        }
      }
    }
    return ords;
  }

  /** Whether the list holds ordinal `ord` (binary search). */
  includes(ord: number): boolean {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docs[mid]! < ord) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.length && this.docs[lo] === ord;
  }

  /** Bytes held by the list's arrays, at capacity. */
  get byteLength(): number {
    let bytes = this.docs.byteLength + this.tfs.byteLength + this.imp.byteLength;
    if (this.blockLast) bytes += this.blockLast.byteLength + this.blockMax!.byteLength;
    return bytes;
  }
}

/** Up to this many lists, matches are counted by merging the lists (no buffer as long as the index). */
const MERGED_LISTS = 8;

/**
 * Live documents in at least one of the lists, each counted once, up to `cap`. `ordinals`: one past the
 * highest ordinal; `alive` and `keys`: the index's liveness and key of each ordinal, `filter` on keys.
 */
export function countLive(
  lists: readonly PostingsList[],
  ordinals: number,
  alive: Uint8Array,
  keys: Float64Array,
  cap: number,
  filter?: (key: number) => boolean,
): number {
  if (lists.length === 0) return 0;
  if (lists.length >= 2 && lists.length <= MERGED_LISTS) return countMerged(lists, alive, keys, cap, filter);
  const seen = lists.length === 1 ? null : new Uint8Array(ordinals);
  let n = 0;
  for (const p of lists) {
    for (let i = 0; i < p.length; i++) {
      const d = p.docs[i]!;
      if (!alive[d] || (seen && seen[d])) continue;
      if (seen) seen[d] = 1;
      if (filter && !filter(keys[d]!)) continue;
      if (++n >= cap) return n;
    }
  }
  return n;
}

/**
 * The lists merged in ordinal order, each document counted once: the count stops at `cap`, after about
 * `cap` documents for common terms, and nothing as long as the index is allocated.
 */
function countMerged(
  lists: readonly PostingsList[],
  alive: Uint8Array,
  keys: Float64Array,
  cap: number,
  filter?: (key: number) => boolean,
): number {
  const pos = new Int32Array(lists.length);
  let n = 0;
  for (;;) {
    let d = 0x7fffffff;
    for (let i = 0; i < lists.length; i++) {
      const p = lists[i]!;
      if (pos[i]! < p.length && p.docs[pos[i]!]! < d) d = p.docs[pos[i]!]!;
    }
    if (d === 0x7fffffff) return n;
    for (let i = 0; i < lists.length; i++) if (pos[i]! < lists[i]!.length && lists[i]!.docs[pos[i]!] === d) pos[i]!++;
    if (!alive[d] || (filter && !filter(keys[d]!))) continue;
    if (++n >= cap) return n;
  }
}
