// Interned texts for a million distinct ones (the engine's name keys, item-names.ts): each text's UTF-8
// bytes in one shared pool, found by an open-addressing hash table of ids, with a use count, so that a
// text costs its bytes and ~24 bytes of typed arrays instead of a string and a Map entry (~100 bytes).
// A text is dropped with its last use; its id is reused and its bytes are reclaimed when the pool grows.

import { resized } from './typed-arrays.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class TextTable {
  private pool = new Uint8Array(1024);
  private end = 0;
  private garbage = 0;
  private off = new Uint32Array(0);
  private len = new Uint32Array(0);
  private useCounts = new Uint32Array(0);
  private hashes = new Uint32Array(0);
  private nextId = 0;
  private readonly free: number[] = [];
  /** id + 1 by slot (0: empty); a power of two at least twice the texts held. */
  private slots = new Int32Array(16);
  private count = 0;
  private scratch = new Uint8Array(256);

  /** Texts held. */
  get size(): number {
    return this.count;
  }

  /** The id of `text`, or -1 when it is not held. */
  id(text: string): number {
    const n = this.encode(text);
    const h = hash(this.scratch, n);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s]!;
      if (v === 0) return -1;
      if (this.hashes[v - 1] === h && this.equals(v - 1, n)) return v - 1;
    }
  }

  /** The id of `text`, added if new; one more use of it. */
  add(text: string): number {
    const found = this.id(text);
    if (found >= 0) {
      this.useCounts[found]!++;
      return found;
    }
    const n = this.encode(text);
    if (this.end + n > this.pool.length) this.growPool(n);
    const id = this.free.pop() ?? this.newId();
    this.pool.set(this.scratch.subarray(0, n), this.end);
    this.off[id] = this.end;
    this.len[id] = n;
    this.end += n;
    this.useCounts[id] = 1;
    this.hashes[id] = hash(this.scratch, n);
    if (2 * (this.count + 1) > this.slots.length) this.rehash(this.slots.length * 2);
    this.place(id);
    this.count++;
    return id;
  }

  /** The uses of the id's text (0: not held). */
  uses(id: number): number {
    return this.useCounts[id] ?? 0;
  }

  text(id: number): string {
    return decoder.decode(this.pool.subarray(this.off[id]!, this.off[id]! + this.len[id]!));
  }

  /** One use fewer of the id's text; the text is dropped with its last use. */
  release(id: number): void {
    if (--this.useCounts[id]! > 0) return;
    this.unplace(id);
    // An erased item's word must not linger in memory until the pool is next compacted.
    this.pool.fill(0, this.off[id]!, this.off[id]! + this.len[id]!);
    this.garbage += this.len[id]!;
    this.len[id] = 0;
    this.free.push(id);
    this.count--;
  }

  /** Bytes held by the pool and the columns. */
  get byteLength(): number {
    const columns = this.off.byteLength + this.len.byteLength + this.useCounts.byteLength + this.hashes.byteLength;
    return this.pool.byteLength + columns + this.slots.byteLength + this.free.length * 8;
  }

  private encode(text: string): number {
    if (this.scratch.length < text.length * 3) this.scratch = new Uint8Array(text.length * 3);
    return encoder.encodeInto(text, this.scratch).written;
  }

  private equals(id: number, n: number): boolean {
    if (this.len[id] !== n) return false;
    const o = this.off[id]!;
    for (let i = 0; i < n; i++) if (this.pool[o + i] !== this.scratch[i]) return false;
    return true;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[id]! & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = id + 1;
  }

  /** Takes the id out of the hash table, shifting back the entries after it (linear probing). */
  private unplace(id: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[id]! & mask;
    while (this.slots[s] !== id + 1) s = (s + 1) & mask;
    for (let next = (s + 1) & mask; this.slots[next] !== 0; next = (next + 1) & mask) {
      const home = this.hashes[this.slots[next]! - 1]! & mask;
      // The entry at `next` may move to `s` when its home is not within (s, next].
      if ((next > s && (home <= s || home > next)) || (next < s && home <= s && home > next)) {
        this.slots[s] = this.slots[next]!;
        s = next;
      }
    }
    this.slots[s] = 0;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let id = 0; id < this.nextId; id++) if (this.useCounts[id]! > 0) this.place(id);
  }

  private newId(): number {
    if (this.nextId === this.off.length) {
      const cap = Math.max(64, this.off.length + (this.off.length >> 1));
      this.off = resized(this.off, cap);
      this.len = resized(this.len, cap);
      this.useCounts = resized(this.useCounts, cap);
      this.hashes = resized(this.hashes, cap);
    }
    return this.nextId++;
  }

  /** Room for `n` more bytes: the live texts copied together (the dropped ones' bytes reclaimed) into a pool a quarter larger. */
  private growPool(n: number): void {
    const live = this.end - this.garbage;
    const need = live + n;
    const size =
      this.garbage * 2 > this.end
        ? Math.max(1024, need + (need >> 2))
        : Math.max(need, this.pool.length + (this.pool.length >> 2));
    const pool = new Uint8Array(size);
    if (this.garbage === 0) {
      // Nothing to reclaim (a build or a load only adds): one copy, not one per text.
      pool.set(this.pool.subarray(0, this.end));
      this.pool = pool;
      return;
    }
    let end = 0;
    for (let id = 0; id < this.nextId; id++) {
      if (this.useCounts[id] === 0) continue;
      pool.set(this.pool.subarray(this.off[id]!, this.off[id]! + this.len[id]!), end);
      this.off[id] = end;
      end += this.len[id]!;
    }
    this.pool = pool;
    this.end = end;
    this.garbage = 0;
  }
}

/** FNV-1a over the bytes. */
function hash(bytes: Uint8Array, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}
