// A map from an item's key to a small non-negative integer (its ordinal or slot), for a million items:
// keys that are small integers (the store's sequences, dense) index a typed array directly (4 bytes a key
// instead of a Map entry's ~30); any other key (negative, fractional, huge, or far beyond the keys held)
// goes to a Map beside it.

import { column, resized } from './typed-arrays.js';

/** Keys at or above this never go to the array. */
const DIRECT_LIMIT = 1 << 26;
/** A key goes to the array only when the array stays within this many slots per key held (sparse keys go to the Map). */
const DENSITY = 4;

export class KeyTable {
  /** value + 1 by key; 0: absent. */
  private direct: Int32Array;
  private readonly rest = new Map<number, number>();
  private count = 0;

  /** `shared`: the array is in shared memory (a scoring worker reads it: `direct`). */
  constructor(shared = false) {
    this.direct = column(Int32Array, 0, shared);
  }

  /** The array of value + 1 by key (0: absent), when it holds every key (none went to the Map); else null. */
  get directArray(): Int32Array | null {
    return this.rest.size === 0 ? this.direct : null;
  }

  get size(): number {
    return this.count + this.rest.size;
  }

  get(key: number): number | undefined {
    const v = this.direct[key];
    if (v !== undefined && v > 0) return v - 1;
    return this.rest.size > 0 ? this.rest.get(key) : undefined;
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  /** Sets the key's value (0 ≤ value < 2³¹ − 1). */
  set(key: number, value: number): void {
    if (!(Number.isInteger(value) && value >= 0 && value < 0x7fffffff)) throw new Error(`a key's value out of range`);
    const v = this.direct[key];
    if (v !== undefined && v > 0) {
      this.direct[key] = value + 1;
      return;
    }
    if (this.rest.has(key) || !this.fits(key)) {
      this.rest.set(key, value);
      return;
    }
    if (key >= this.direct.length) this.grow(key);
    this.direct[key] = value + 1;
    this.count++;
  }

  delete(key: number): boolean {
    const v = this.direct[key];
    if (v !== undefined && v > 0) {
      this.direct[key] = 0;
      this.count--;
      return true;
    }
    return this.rest.delete(key);
  }

  /** Every key with its value: the array's in ascending key order, then the Map's. */
  *entries(): IterableIterator<[number, number]> {
    const d = this.direct;
    for (let k = 0; k < d.length; k++) if (d[k]! > 0) yield [k, d[k]! - 1];
    yield* this.rest.entries();
  }

  *keys(): IterableIterator<number> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<number> {
    for (const [, v] of this.entries()) yield v;
  }

  /** Bytes held (the Map's entries estimated). */
  get byteLength(): number {
    return this.direct.byteLength + this.rest.size * 32;
  }

  private fits(key: number): boolean {
    return Number.isInteger(key) && key >= 0 && key < DIRECT_LIMIT && key < DENSITY * (this.count + 1024);
  }

  private grow(key: number): void {
    const cap = Math.min(DIRECT_LIMIT, Math.max(1024, this.direct.length * 2, key + 1));
    this.direct = resized(this.direct, cap);
  }
}
