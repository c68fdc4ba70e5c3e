// Typed arrays that grow: the one copy every growable column of the index makes.

type Column = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;

type ColumnType<T extends Column> = {
  new (length: number): T;
  new (buffer: ArrayBufferLike): T;
  BYTES_PER_ELEMENT: number;
};

/**
 * A zeroed column `length` elements long, in memory that scoring workers can read in place when `shared`
 * (a SharedArrayBuffer; scoring-pool.ts), else in the thread's own.
 */
export function column<T extends Column>(type: ColumnType<T>, length: number, shared = false): T {
  return shared ? new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT)) : new type(length);
}

/** Whether a column lives in shared memory. */
export const isShared = (array: Column): boolean => array.buffer instanceof SharedArrayBuffer;

/**
 * A copy of `array` `length` elements long (longer: zeros after; shorter: cut), of the same type, in shared
 * memory when `shared` (by default where the array was).
 */
export function resized<T extends Column>(array: T, length: number, shared = isShared(array)): T {
  const next = column(array.constructor as ColumnType<T>, length, shared);
  (next as Float64Array).set(length >= array.length ? array : array.subarray(0, length));
  return next;
}

/**
 * The capacity a full postings list (or its side table) grows to when one more entry comes: twice as much
 * while it is small (under 64); then, while the index is being built, an eighth more (the build ends by
 * giving the spare room back, trim()); once the list is settled (trimmed, or loaded from a snapshot, with
 * no spare room), a sixty-fourth more, at least 32. At a million items the first thousand writes after a
 * load touch most long lists: growing each by an eighth cost 69 MiB, by a sixty-fourth 11 MiB, no slower
 * (bench/results/search-memory.md). A build by sixty-fourths, though, copies each posting ~64 times
 * instead of ~9: it took 17% longer at 300,000 units.
 */
export const grownCapacity = (capacity: number, settled: boolean): number =>
  capacity < 64 ? Math.max(2, capacity * 2) : capacity + (settled ? Math.max(32, capacity >> 6) : capacity >> 3);
