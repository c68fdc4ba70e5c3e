// The lexical index's vocabulary and postings (lexical.ts): term → id (text-table.ts: the terms' bytes in
// one pool, a hash table of ids), and each id's postings.
// Most terms of a large registry occur in one or two items, and a list object with its own typed arrays
// costs several hundred bytes whatever its length, so a list of up to SHORT postings lives in a shared
// pool (a fixed run of SHORT entries per id in three typed arrays); a longer one is a Postings of its
// own (postings.ts: growable arrays and block bounds). Lists move from the pool when they pass SHORT and
// back when compaction shrinks them. A term held only by removed documents leaves the vocabulary at the
// next sweep (dropDead) or compaction, its text overwritten; the ids of dropped terms are reused.
//
// Memory per term: its text's bytes and ~24 bytes of the text table, SHORT × (4 + 2 + nf) bytes of pool and
// 5 bytes (length, owner); a long list's Postings adds its arrays (postings.ts) and ~500 bytes of objects.
import { resized } from './typed-arrays.js';
import { MAX_TF, Postings, type PostingsList } from './postings.js';
import { TextTable } from './text-table.js';
import { PackedTfs, rowOf, type PackedRows } from './packed-tfs.js';

/** Postings a term keeps in the shared pool, at most. */
export const SHORT = 2;
/** In the length column: the list is a Postings of its own. */
const LONG = 255;

/** One term's postings as saved: ordinals, their term frequencies (packed-tfs.ts), impacts. */
export interface SavedList {
  docs: Int32Array;
  tfs: PackedRows;
  imp: Uint16Array;
  length: number;
  owner: number;
  /** Views into the shared pool (they change with the index: copy what must stay). */
  pooled?: boolean;
}

export class TermStore {
  /** The vocabulary: each term's text by its id (text-table.ts), the id also its place in the pool. */
  private readonly vocabulary = new TextTable();
  private readonly longs = new Map<number, Postings>();
  /** One past the highest id given. */
  private idLimit = 0;
  private cap = 0;
  private lens = new Uint8Array(0);
  private owners = new Int32Array(0);
  private docs = new Int32Array(0);
  private imp = new Uint16Array(0);
  private tfs = new Uint8Array(0);

  constructor(
    private readonly nf: number,
    /** Postings a term keeps in the pool, at most (0: every term has a Postings of its own). */
    private readonly short = SHORT,
  ) {
    if (!(short >= 0 && short < LONG)) throw new Error(`short lists of 0 to ${LONG - 1} postings`);
  }

  /** Terms held. */
  get size(): number {
    return this.vocabulary.size;
  }

  id(term: string): number | undefined {
    const id = this.vocabulary.id(term);
    return id < 0 ? undefined : id;
  }

  /** A new term with an empty list, brought by `owner` (-1: no one in particular); answers its id. */
  add(term: string, owner: number): number {
    const id = this.vocabulary.add(term);
    if (id >= this.cap) this.grow();
    this.idLimit = Math.max(this.idLimit, id + 1);
    this.lens[id] = 0;
    this.owners[id] = owner;
    return id;
  }

  owner(id: number): number {
    return this.owners[id]!;
  }

  /** Postings in the term's list (dead ones included until compaction). */
  length(id: number): number {
    const n = this.lens[id]!;
    return n === LONG ? this.longs.get(id)!.length : n;
  }

  /** The term's list for scoring (a view into the pool for a short one: take it, use it, drop it). */
  list(id: number): PostingsList {
    const n = this.lens[id]!;
    if (n === LONG) return this.longs.get(id)!;
    const o = id * this.short;
    return {
      docs: this.docs.subarray(o, o + n),
      imp: this.imp.subarray(o, o + n),
      length: n,
      blockLast: null,
      blockMax: null,
    };
  }

  /** The term's list as saved (views, but for a short list's term frequencies). */
  saved(id: number): SavedList {
    const n = this.lens[id]!;
    const owner = this.owners[id]!;
    if (n === LONG) {
      const p = this.longs.get(id)!;
      return { docs: p.docs, tfs: p.tfs.saved(), imp: p.imp, length: p.length, owner };
    }
    const o = id * this.short;
    const nf = this.nf;
    return {
      docs: this.docs.subarray(o, o + n),
      tfs: PackedTfs.of(nf, this.tfs.subarray(o * nf, (o + n) * nf), n).saved(),
      imp: this.imp.subarray(o, o + n),
      length: n,
      owner,
      pooled: true,
    };
  }

  /** Appends a posting (ordinals ascending): `tf` nf term frequencies (at most MAX_TF), its impact. */
  push(id: number, doc: number, tf: ArrayLike<number>, impact: number): void {
    const n = this.lens[id]!;
    if (n === LONG) return this.longs.get(id)!.push(doc, tf, impact);
    if (n === this.short) {
      const p = new Postings(this.nf);
      for (let i = 0; i < n; i++)
        p.push(this.docs[id * this.short + i]!, this.tfRow(id * this.short + i), this.imp[id * this.short + i]!);
      p.push(doc, tf, impact);
      this.longs.set(id, p);
      this.lens[id] = LONG;
      return;
    }
    const at = id * this.short + n;
    this.docs[at] = doc;
    this.imp[at] = impact;
    for (let f = 0; f < this.nf; f++) this.tfs[at * this.nf + f] = Math.min(MAX_TF, tf[f]!);
    this.lens[id] = n + 1;
  }

  /** Whether the term's list holds ordinal `ord`. */
  includes(id: number, ord: number): boolean {
    const n = this.lens[id]!;
    if (n === LONG) return this.longs.get(id)!.includes(ord);
    for (let i = 0; i < n; i++) if (this.docs[id * this.short + i] === ord) return true;
    return false;
  }

  /** The live documents whose term frequency is positive in any of `fields`, ascending. */
  liveOrdinals(id: number, fields: readonly number[], alive: Uint8Array): number[] {
    const n = this.lens[id]!;
    if (n === LONG) return this.longs.get(id)!.liveOrdinals(fields, alive);
    const ords: number[] = [];
    for (let i = id * this.short; i < id * this.short + n; i++) {
      const d = this.docs[i]!;
      if (alive[d] && fields.some((f) => this.tfs[i * this.nf + f]! > 0)) ords.push(d);
    }
    return ords;
  }

  /**
   * Recomputes every impact with `impact(tfs, offset, ordinal)` (a posting's nf frequencies at
   * tfs[offset..]), and the long lists' block bounds.
   */
  refreshImpacts(impact: (tfs: Uint8Array, offset: number, ord: number) => number): void {
    const nf = this.nf;
    for (const p of this.longs.values()) p.refreshImpacts((row, ord) => impact(row, 0, ord));
    for (let id = 0; id < this.idLimit; id++) {
      const n = this.lens[id]!;
      if (n === LONG) continue;
      for (let i = id * this.short; i < id * this.short + n; i++) this.imp[i] = impact(this.tfs, i * nf, this.docs[i]!);
    }
  }

  /**
   * Keeps only the postings of live documents (impacts are left for refreshImpacts); drops the terms left
   * without any, telling `dropped` their owner. Answers the postings kept.
   */
  retainLive(alive: Uint8Array, dropped: (owner: number) => void): number {
    let total = 0;
    for (let id = 0; id < this.idLimit; id++) {
      if (this.vocabulary.uses(id) === 0) continue;
      let w: number;
      const n = this.lens[id]!;
      if (n === LONG) {
        const p = this.longs.get(id)!;
        w = p.retainLive(alive);
        if (w > 0 && w <= this.short) {
          // Back to the pool.
          const row = new Uint8Array(this.nf);
          for (let i = 0; i < w; i++) {
            const at = id * this.short + i;
            this.docs[at] = p.docs[i]!;
            this.tfs.set(p.row(i, row), at * this.nf);
          }
          this.longs.delete(id);
          this.lens[id] = w;
        }
      } else {
        w = 0;
        for (let i = 0; i < n; i++) {
          const from = id * this.short + i;
          if (!alive[this.docs[from]!]) continue;
          const to = id * this.short + w++;
          this.docs[to] = this.docs[from]!;
          this.tfs.copyWithin(to * this.nf, from * this.nf, (from + 1) * this.nf);
        }
        this.lens[id] = w;
      }
      if (w === 0) {
        this.forget(id);
        dropped(this.owners[id]!);
      }
      total += w;
    }
    return total;
  }

  /** Whether the term's list holds a posting of a live document. */
  hasLive(id: number, alive: Uint8Array): boolean {
    const n = this.lens[id]!;
    if (n === LONG) {
      const p = this.longs.get(id)!;
      for (let i = 0; i < p.length; i++) if (alive[p.docs[i]!]) return true;
      return false;
    }
    for (let i = id * this.short; i < id * this.short + n; i++) if (alive[this.docs[i]!]) return true;
    return false;
  }

  /**
   * Drops the terms whose postings are all of removed documents, telling `dropped` their owner (the other
   * lists are left as they are: only compaction rewrites them). Answers the postings dropped with them.
   */
  dropDead(alive: Uint8Array, dropped: (owner: number) => void): number {
    let postings = 0;
    for (let id = 0; id < this.idLimit; id++) {
      if (this.vocabulary.uses(id) === 0 || this.hasLive(id, alive)) continue;
      postings += this.length(id);
      this.forget(id);
      dropped(this.owners[id]!);
    }
    return postings;
  }

  /** Takes a term out of the vocabulary with its list (its id is free for a new term). */
  private forget(id: number): void {
    this.vocabulary.release(id);
    this.longs.delete(id);
    this.lens[id] = 0;
  }

  /** Every term with its id, in no particular order (terms only removed documents hold included). */
  *entries(): IterableIterator<[string, number]> {
    for (let id = 0; id < this.idLimit; id++) if (this.vocabulary.uses(id) > 0) yield [this.vocabulary.text(id), id];
  }

  /** The lists with a Postings of their own (to trim them a slice at a time). */
  longLists(): Iterable<Postings> {
    return this.longs.values();
  }

  /** Puts back a saved list (copied) as a new term's. */
  restore(term: string, list: SavedList): void {
    const id = this.add(term, list.owner);
    const n = list.length;
    if (n > this.short) {
      this.longs.set(id, Postings.restored(this.nf, list.docs.subarray(0, n), list.tfs, list.imp.subarray(0, n)));
      this.lens[id] = LONG;
      return;
    }
    const o = id * this.short;
    this.docs.set(list.docs.subarray(0, n), o);
    this.imp.set(list.imp.subarray(0, n), o);
    for (let i = 0; i < n; i++)
      rowOf(list.tfs, this.nf, i, this.tfs.subarray((o + i) * this.nf, (o + i + 1) * this.nf));
    this.lens[id] = n;
  }

  /** Bytes of the pool and the vocabulary (estimated for the Map), the long lists' apart (longBytes). */
  get poolBytes(): number {
    const pool = this.docs.byteLength + this.imp.byteLength + this.tfs.byteLength;
    return pool + this.lens.byteLength + this.owners.byteLength + this.vocabulary.byteLength;
  }

  private tfRow(at: number): Uint8Array {
    return this.tfs.subarray(at * this.nf, (at + 1) * this.nf);
  }

  private grow(): void {
    const cap = Math.max(64, this.cap * 2);
    this.lens = resized(this.lens, cap);
    this.owners = resized(this.owners, cap);
    this.docs = resized(this.docs, cap * this.short);
    this.imp = resized(this.imp, cap * this.short);
    this.tfs = resized(this.tfs, cap * this.short * this.nf);
    this.cap = cap;
  }
}
