// Exact cosine top-k over unit vectors kept in one growable Float32Array (row per item). Memory per item:
// 4 × dimensions bytes (2 KiB for 512 dimensions) + ~60 bytes of bookkeeping. A scan costs one dot product
// per live item: ~5 ms per 100k items of 512 dimensions on one core, so it serves the registry's real scale
// (tens of thousands of skills); beyond that, VectorIndex is the interface an approximate index (HNSW,
// usearch) would implement with the same calls.

export interface VectorHit {
  key: number;
  score: number;
}

export interface VectorIndex {
  readonly dimensions: number;
  readonly size: number;
  upsert(key: number, vector: Float32Array): void;
  remove(key: number): boolean;
  get(key: number): Float32Array | undefined;
  /** Cosine similarity of the stored vector of `key` with `query` (unit vectors); undefined if absent. */
  similarity(key: number, query: Float32Array): number | undefined;
  /** The k most similar live items with similarity ≥ minScore, best first (ties by key). */
  search(query: Float32Array, k: number, minScore?: number, filter?: (key: number) => boolean): VectorHit[];
  memoryBytes(): number;
}

export class ExactVectorIndex implements VectorIndex {
  private data: Float32Array;
  private keys: Float64Array;
  private readonly rowOf = new Map<number, number>();
  private rows = 0;
  private readonly free: number[] = [];

  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(capacity * dimensions);
    this.keys = new Float64Array(capacity).fill(-1);
  }

  get size(): number {
    return this.rowOf.size;
  }

  upsert(key: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions)
      throw new Error(`vector of ${vector.length} dimensions, expected ${this.dimensions}`);
    let row = this.rowOf.get(key);
    if (row === undefined) {
      row = this.free.pop() ?? this.rows++;
      if (row >= this.keys.length) {
        const cap = this.keys.length * 2;
        const data = new Float32Array(cap * this.dimensions);
        data.set(this.data);
        this.data = data;
        const keys = new Float64Array(cap).fill(-1);
        keys.set(this.keys);
        this.keys = keys;
      }
      this.rowOf.set(key, row);
      this.keys[row] = key;
    }
    this.data.set(vector, row * this.dimensions);
  }

  remove(key: number): boolean {
    const row = this.rowOf.get(key);
    if (row === undefined) return false;
    this.rowOf.delete(key);
    this.keys[row] = -1;
    this.free.push(row);
    return true;
  }

  get(key: number): Float32Array | undefined {
    const row = this.rowOf.get(key);
    return row === undefined ? undefined : this.data.slice(row * this.dimensions, (row + 1) * this.dimensions);
  }

  similarity(key: number, query: Float32Array): number | undefined {
    const row = this.rowOf.get(key);
    if (row === undefined) return undefined;
    return this.dot(row, query);
  }

  private dot(row: number, q: Float32Array): number {
    const d = this.data;
    const dim = this.dimensions;
    let off = row * dim;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < dim; i += 4, off += 4) {
      s0 += d[off]! * q[i]!;
      s1 += d[off + 1]! * q[i + 1]!;
      s2 += d[off + 2]! * q[i + 2]!;
      s3 += d[off + 3]! * q[i + 3]!;
    }
    for (; i < dim; i++, off++) s0 += d[off]! * q[i]!;
    return s0 + s1 + s2 + s3;
  }

  search(query: Float32Array, k: number, minScore = -Infinity, filter?: (key: number) => boolean): VectorHit[] {
    if (k <= 0) return [];
    const hits: VectorHit[] = [];
    let floor = minScore;
    for (let row = 0; row < this.rows; row++) {
      const key = this.keys[row]!;
      if (key < 0) continue;
      const s = this.dot(row, query);
      if (s < floor) continue;
      if (filter && !filter(key)) continue;
      hits.push({ key, score: s });
      if (hits.length >= 4 * k) {
        hits.sort((a, b) => b.score - a.score || a.key - b.key);
        hits.length = k;
        floor = Math.max(floor, hits[k - 1]!.score);
      }
    }
    hits.sort((a, b) => b.score - a.score || a.key - b.key);
    return hits.slice(0, k);
  }

  memoryBytes(): number {
    return this.data.byteLength + this.keys.byteLength + this.rowOf.size * 40;
  }

  /** Keys of the live vectors. */
  allKeys(): number[] {
    return [...this.rowOf.keys()];
  }
}
