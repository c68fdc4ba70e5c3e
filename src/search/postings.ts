// One term's postings list in the lexical index (lexical.ts): the documents that contain the term, by
// insertion ordinal (ascending, append-only), with their per-field term frequencies and BM25F impacts in
// typed arrays that grow by doubling; and, once the list passes one block, each block's last ordinal and
// maximum impact (the bounds block-max MaxScore skips by, maxscore.ts). Also the list-level operations the index
// needs: compaction, membership, the live ordinals of some fields, counting matches, memory.
//
// Memory: per posting 4 bytes (ordinal) + 4 (impact) + 1 per field (tf, capped at 255, kept to recompute
// impacts); per 128 postings of a long list 8 bytes of block bounds.

import { resized } from './typed-arrays.js';

export const BLOCK = 128;
export const MAX_TF = 255;

/**
 * The capacity a list keeps for its length once it stops doubling (after a build, or loaded from a
 * snapshot): an eighth more, so that the items added next do not copy every long list at once (at a
 * million items, that copy is the whole index).
 */
export const roomFor = (length: number): number => length + (length >> 3) + 2;

/** What scoring reads of a postings list: a Postings, or a view of a short list in the shared pool (term-store.ts). */
export interface PostingsList {
  readonly docs: Int32Array;
  readonly imp: Float32Array;
  readonly length: number;
  /** Once the list passes one block: each block's last ordinal and its maximum impact. */
  readonly blockLast: Int32Array | null;
  readonly blockMax: Float32Array | null;
}

export class Postings implements PostingsList {
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

  /**
   * A list from saved arrays (a snapshot; copied): `docs` ascending, `tfs` nf per posting, `imp` the
   * impacts. With room to grow (roomFor).
   */
  static restored(nf: number, docs: Int32Array, tfs: Uint8Array, imp: Float32Array): Postings {
    if (tfs.length !== docs.length * nf || imp.length !== docs.length)
      throw new Error('postings arrays of different lengths');
    const p = new Postings(nf);
    const cap = roomFor(docs.length);
    p.docs = new Int32Array(cap);
    p.docs.set(docs);
    p.tfs = new Uint8Array(cap * nf);
    p.tfs.set(tfs);
    p.imp = new Float32Array(cap);
    p.imp.set(imp);
    p.length = docs.length;
    p.buildBlocks();
    return p;
  }

  push(doc: number, tf: ArrayLike<number>, impact: number): void {
    const nf = this.nf;
    if (this.length === this.docs.length) {
      const cap = this.docs.length * 2;
      this.docs = resized(this.docs, cap);
      this.tfs = resized(this.tfs, cap * nf);
      this.imp = resized(this.imp, cap);
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

  /** Gives back most of the room the doubling left unused (after a bulk build), keeping roomFor's. */
  trim(): void {
    const nf = this.nf;
    const cap = roomFor(this.length);
    if (this.docs.length > cap) {
      this.docs = this.docs.slice(0, cap);
      this.tfs = this.tfs.slice(0, cap * nf);
      this.imp = this.imp.slice(0, cap);
    }
    const nb = Math.max(4, Math.ceil(this.length / BLOCK));
    if (this.blockLast !== null && this.blockLast.length > nb) {
      this.blockLast = this.blockLast.slice(0, nb);
      this.blockMax = this.blockMax!.slice(0, nb);
    }
  }

  /**
   * Keeps only the postings of live documents (impacts and block bounds are left for the caller to
   * recompute); frees most of the arrays when the list shrank to under a quarter. Returns the postings
   * kept (the list is left untouched when none is).
   */
  retainLive(alive: Uint8Array): number {
    const nf = this.nf;
    let w = 0;
    for (let i = 0; i < this.length; i++) {
      const d = this.docs[i]!;
      if (!alive[d]) continue;
      this.docs[w] = d;
      for (let f = 0; f < nf; f++) this.tfs[w * nf + f] = this.tfs[i * nf + f]!;
      w++;
    }
    if (w > 0 && w < this.length) {
      this.length = w;
      if (this.docs.length > 4 * w) {
        const cap = Math.max(2, w);
        this.docs = this.docs.slice(0, cap);
        this.tfs = this.tfs.slice(0, cap * nf);
        this.imp = this.imp.slice(0, cap);
      }
    }
    return w;
  }

  /** The live documents whose term frequency is positive in any of `fields`, ascending. */
  liveOrdinals(fields: readonly number[], alive: Uint8Array): number[] {
    const nf = this.nf;
    const ords: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const d = this.docs[i]!;
      if (!alive[d]) continue;
      for (const f of fields) {
        if (this.tfs[i * nf + f]! > 0) {
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
