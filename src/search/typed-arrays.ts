// Typed arrays that grow: the one copy every growable column of the index makes.

type Column = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;

/** A copy of `array` `length` elements long (longer: zeros after; shorter: cut), of the same type. */
export function resized<T extends Column>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  (next as Float64Array).set(length >= array.length ? array : array.subarray(0, length));
  return next;
}
