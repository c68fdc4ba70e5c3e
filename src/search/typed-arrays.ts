// Typed arrays that grow: the one copy every growable column of the index makes.

type Column = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;

/** A copy of `array` `length` elements long (longer: zeros after; shorter: cut), of the same type. */
export function resized<T extends Column>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  (next as Float64Array).set(length >= array.length ? array : array.subarray(0, length));
  return next;
}

/**
 * The capacity a full postings list (or its side table) grows to when one more entry comes: twice as much
 * while it is small, then a sixty-fourth more (at least 32). A list holds no spare room after a build
 * (trim) or a load, so only the lists that items are added to grow, by a small share: at a million items
 * the first thousand writes after a load touch most long lists, and growing each by an eighth cost 69 MiB
 * (by a sixty-fourth: 11 MiB, and no slower, bench/results/search-memory.md). Each copy of a list of n
 * entries then serves at least n/64 appends, ~64 bytes copied per byte appended.
 */
export const grownCapacity = (capacity: number): number =>
  capacity < 64 ? Math.max(2, capacity * 2) : capacity + Math.max(32, capacity >> 6);
