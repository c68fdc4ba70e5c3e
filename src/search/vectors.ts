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

  constructor(readonly dimensions: number, capacity = 1024) {
    this.data = new Float32Array(capacity * dimensions);
    this.keys = new Float64Array(capacity).fill(-1);
  }

  get size(): number {
    return this.rowOf.size;
  }

  upsert(key: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw new Error(`vector of ${vector.length} dimensions, expected ${this.dimensions}`);
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

/**
 * Inverted-file index (IVF-flat): vectors grouped by their nearest of `lists` centroids (k-means, trained
 * on the vectors present); a search compares the query with every centroid, then scans only the `probes`
 * nearest lists. Exact similarities within the scanned lists; recall is the share of the true top-k found
 * (bench/search-lab/vectors.ts measures it). New vectors join their nearest list without retraining;
 * train() again once the collection has grown a lot (the engine does it when it doubles). Memory: the
 * vectors (4 × dimensions bytes each) plus the centroids.
 */
export class IvfVectorIndex implements VectorIndex {
  private readonly exact: ExactVectorIndex;
  private centroids: Float32Array = new Float32Array(0);
  private nlist = 0;
  private lists: number[][] = [];
  private listOf = new Map<number, number>();
  private trainedSize = 0;

  constructor(readonly dimensions: number, readonly options: { lists?: number; probes?: number; seed?: number } = {}) {
    this.exact = new ExactVectorIndex(dimensions);
  }

  get size(): number {
    return this.exact.size;
  }

  /** Size at the last training (0 = never trained: searches are exact until then). */
  get trainedAt(): number {
    return this.trainedSize;
  }

  private nearestList(v: Float32Array): number {
    let best = -Infinity;
    let bi = 0;
    const dim = this.dimensions;
    for (let c = 0; c < this.nlist; c++) {
      let s = 0;
      const off = c * dim;
      for (let i = 0; i < dim; i++) s += this.centroids[off + i]! * v[i]!;
      if (s > best) {
        best = s;
        bi = c;
      }
    }
    return bi;
  }

  /** k-means (spherical: centroids renormalized) on the current vectors; reassigns every vector. */
  train(iterations = 8): void {
    const keys = this.exact.allKeys();
    const n = keys.length;
    const dim = this.dimensions;
    const nlist = Math.max(1, Math.min(this.options.lists ?? Math.round(Math.sqrt(n)), n));
    this.nlist = nlist;
    this.centroids = new Float32Array(nlist * dim);
    // Deterministic initial centroids: evenly spaced keys in key order.
    const sorted = [...keys].sort((a, b) => a - b);
    for (let c = 0; c < nlist; c++) this.centroids.set(this.exact.get(sorted[Math.floor((c * n) / nlist)]!)!, c * dim);
    const assign = new Int32Array(n);
    const vecs = sorted.map((k) => this.exact.get(k)!);
    for (let it = 0; it < iterations; it++) {
      for (let i = 0; i < n; i++) assign[i] = this.nearestList(vecs[i]!);
      const sums = new Float64Array(nlist * dim);
      const counts = new Int32Array(nlist);
      for (let i = 0; i < n; i++) {
        const c = assign[i]!;
        counts[c]!++;
        const v = vecs[i]!;
        for (let d = 0; d < dim; d++) sums[c * dim + d]! += v[d]!;
      }
      for (let c = 0; c < nlist; c++) {
        if (counts[c] === 0) continue;
        let norm = 0;
        for (let d = 0; d < dim; d++) norm += sums[c * dim + d]! ** 2;
        norm = Math.sqrt(norm) || 1;
        for (let d = 0; d < dim; d++) this.centroids[c * dim + d] = sums[c * dim + d]! / norm;
      }
    }
    this.lists = Array.from({ length: nlist }, () => []);
    this.listOf.clear();
    for (let i = 0; i < n; i++) {
      const c = this.nearestList(vecs[i]!);
      this.lists[c]!.push(sorted[i]!);
      this.listOf.set(sorted[i]!, c);
    }
    this.trainedSize = n;
  }

  upsert(key: number, vector: Float32Array): void {
    this.remove(key);
    this.exact.upsert(key, vector);
    if (this.nlist > 0) {
      const c = this.nearestList(vector);
      this.lists[c]!.push(key);
      this.listOf.set(key, c);
    }
  }

  remove(key: number): boolean {
    const c = this.listOf.get(key);
    if (c !== undefined) {
      const l = this.lists[c]!;
      const i = l.indexOf(key);
      if (i >= 0) {
        l[i] = l[l.length - 1]!;
        l.pop();
      }
      this.listOf.delete(key);
    }
    return this.exact.remove(key);
  }

  get(key: number): Float32Array | undefined {
    return this.exact.get(key);
  }

  similarity(key: number, query: Float32Array): number | undefined {
    return this.exact.similarity(key, query);
  }

  search(query: Float32Array, k: number, minScore = -Infinity, filter?: (key: number) => boolean): VectorHit[] {
    if (this.nlist === 0) return this.exact.search(query, k, minScore, filter);
    const probes = Math.min(this.nlist, this.options.probes ?? Math.max(1, Math.ceil(this.nlist / 8)));
    const dim = this.dimensions;
    const cs: Array<{ c: number; s: number }> = [];
    for (let c = 0; c < this.nlist; c++) {
      let s = 0;
      const off = c * dim;
      for (let i = 0; i < dim; i++) s += this.centroids[off + i]! * query[i]!;
      cs.push({ c, s });
    }
    cs.sort((a, b) => b.s - a.s || a.c - b.c);
    const hits: VectorHit[] = [];
    for (let p = 0; p < probes; p++) {
      for (const key of this.lists[cs[p]!.c]!) {
        const s = this.exact.similarity(key, query)!;
        if (s < minScore || (filter && !filter(key))) continue;
        hits.push({ key, score: s });
      }
    }
    hits.sort((a, b) => b.score - a.score || a.key - b.key);
    return hits.slice(0, k);
  }

  memoryBytes(): number {
    return this.exact.memoryBytes() + this.centroids.byteLength + this.listOf.size * 48;
  }
}
