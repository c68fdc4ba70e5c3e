// A lab experiment, not shipped: an inverted-file vector index (IVF-flat) over the registry's exact index,
// measured against it and against HNSW (usearch) in RESULTS.md.
import { ExactVectorIndex, type VectorHit, type VectorIndex } from '../../src/search/vectors.js';

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

  constructor(
    readonly dimensions: number,
    readonly options: { lists?: number; probes?: number; seed?: number } = {},
  ) {
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
