// The one interface every embedding provider implements. Vectors come back L2-normalized, so cosine
// similarity is a dot product.

export interface EmbeddingProvider {
  /** Stable identifier of the model, stored with vectors: vectors of different ids never mix. */
  readonly id: string;
  /** Length of every vector; 0 for the `none` provider. */
  readonly dimensions: number;
  /** One vector per text, same order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Frees threads or native memory held by the provider. */
  close?(): Promise<void>;
}

/** Scales `v` in place to unit length (a zero vector stays zero). */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

/** The `none` provider: no semantic evidence; search is lexical only. */
export const noEmbeddings: EmbeddingProvider = {
  id: 'none',
  dimensions: 0,
  embed: async (texts) => texts.map(() => new Float32Array(0)),
};
