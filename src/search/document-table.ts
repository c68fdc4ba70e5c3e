// A LexicalIndex's per-document columns, by insertion ordinal: each field's length, the caller's key and
// whether the document is alive; the key → ordinal table of live documents (key-table.ts); every field's
// total length and the live count (what BM25F's average lengths are made of). A document costs 4 bytes
// per field (length) + 9 bytes + 4 bytes of key table; the arrays grow by doubling, then by an eighth.
// Liveness and keys are in shared memory: a scoring worker reads them in place (scoring-pool.ts).
import { column, resized } from './typed-arrays.js';
import { KeyTable } from './key-table.js';

/** The columns kept in a snapshot (part of LexicalHead). */
export interface SavedDocuments {
  nextOrd: number;
  totalLen: number[];
  /** Copies, `nextOrd` long (lens: nf per ordinal). */
  lens: Uint32Array;
  keys: Float64Array;
  alive: Uint8Array;
}

export class DocumentTable {
  private readonly nf: number;
  lens: Uint32Array; // ordinal * nf + f
  keys: Float64Array; // ordinal → key
  alive: Uint8Array;
  readonly ordOf = new KeyTable();
  /** One past the highest ordinal given so far. */
  nextOrd = 0;
  aliveCount = 0;
  readonly totalLen: Float64Array;

  constructor(nf: number) {
    this.nf = nf;
    this.lens = new Uint32Array(64 * nf);
    this.keys = column(Float64Array, 64, true);
    this.alive = column(Uint8Array, 64, true);
    this.totalLen = new Float64Array(nf);
  }

  /** A new live ordinal for `key` (not in the table), with each field's length (`fields[f].length`). */
  add(key: number, fields: readonly { readonly length: number }[]): number {
    const ord = this.nextOrd++;
    if (ord >= this.keys.length) this.grow();
    const nf = this.nf;
    for (let f = 0; f < nf; f++) {
      const len = fields[f]!.length;
      this.lens[ord * nf + f] = len;
      this.totalLen[f]! += len;
    }
    this.keys[ord] = key;
    this.alive[ord] = 1;
    this.ordOf.set(key, ord);
    this.aliveCount++;
    return ord;
  }

  /** Marks the document dead; false when the key is not in the table. */
  remove(key: number): boolean {
    const ord = this.ordOf.get(key);
    if (ord === undefined) return false;
    this.ordOf.delete(key);
    this.alive[ord] = 0;
    this.aliveCount--;
    for (let f = 0; f < this.nf; f++) this.totalLen[f]! -= this.lens[ord * this.nf + f]!;
    return true;
  }

  /** Twice the room while the table is small, then an eighth more (after a load, the first add copies the columns once). */
  private grow(): void {
    const n = this.keys.length;
    const cap = n < 4096 ? n * 2 : n + (n >> 3);
    this.lens = resized(this.lens, cap * this.nf);
    this.keys = resized(this.keys, cap);
    this.alive = resized(this.alive, cap);
  }

  saved(): SavedDocuments {
    const n = this.nextOrd;
    return {
      nextOrd: n,
      totalLen: [...this.totalLen],
      lens: this.lens.slice(0, n * this.nf),
      keys: this.keys.slice(0, n),
      alive: this.alive.slice(0, n),
    };
  }

  /** Restores, into an empty table, what saved() answered; then restoreOrdinal for each ordinal. */
  restore(h: SavedDocuments): void {
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
    this.keys = column(Float64Array, cap, true);
    this.keys.set(h.keys);
    this.alive = column(Uint8Array, cap, true);
    this.alive.set(h.alive);
    this.nextOrd = h.nextOrd;
    this.totalLen.set(h.totalLen);
  }

  /** Puts a restored live ordinal back in the key table and the live count. */
  restoreOrdinal(ord: number): void {
    if (this.alive[ord] !== 1) return;
    this.ordOf.set(this.keys[ord]!, ord);
    this.aliveCount++;
  }

  /** Bytes of the columns and the key table (at capacity). */
  get byteLength(): number {
    return this.lens.byteLength + this.keys.byteLength + this.alive.byteLength + this.ordOf.byteLength;
  }
}
