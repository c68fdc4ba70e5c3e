// Approximate nearest neighbours with usearch (HNSW, native code; the npm package ships prebuilt binaries
// for linux-x64/arm64, macOS and Windows, so it installs offline). Vectors are also kept as Float32 on the
// JS side for exact similarities of lexical candidates (similarity/get). Memory per item: 4 × dimensions
// (JS copy) + the HNSW graph and its quantized copy (i8: dimensions + ~2 × connectivity × 8 bytes).
// A filter is applied after the search, over `overfetch` × k neighbours: a very selective filter can
// leave fewer than k (the engine's lexical side still finds items sharing a word with the query).
import { createRequire } from 'node:module';
import { ExactVectorIndex, type VectorHit, type VectorIndex } from './vectors.js';

interface UsearchModule {
  Index: new (config: {
    dimensions: number;
    metric: string;
    quantization: string;
    connectivity: number;
    expansion_add: number;
    expansion_search: number;
    multi: boolean;
  }) => UsearchIndex;
}
interface UsearchIndex {
  add(keys: bigint, vectors: Float32Array): void;
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  remove(keys: bigint): number;
  size(): number;
  memoryUsage?(): number;
}

export interface UsearchOptions {
  quantization?: 'f32' | 'f16' | 'i8';
  connectivity?: number;
  expansionAdd?: number;
  expansionSearch?: number;
  overfetch?: number;
}

export class UsearchVectorIndex implements VectorIndex {
  private readonly exact: ExactVectorIndex;
  private readonly index: UsearchIndex;
  private readonly overfetch: number;

  constructor(
    readonly dimensions: number,
    options: UsearchOptions = {},
  ) {
    const usearch = createRequire(import.meta.url)('usearch') as UsearchModule;
    this.exact = new ExactVectorIndex(dimensions);
    this.index = new usearch.Index({
      dimensions,
      metric: 'ip',
      quantization: options.quantization ?? 'i8',
      connectivity: options.connectivity ?? 16,
      expansion_add: options.expansionAdd ?? 128,
      expansion_search: options.expansionSearch ?? 128,
      multi: false,
    });
    this.overfetch = options.overfetch ?? 2;
  }

  get size(): number {
    return this.exact.size;
  }

  upsert(key: number, vector: Float32Array): void {
    if (this.exact.get(key) !== undefined) this.index.remove(BigInt(key));
    this.exact.upsert(key, vector);
    this.index.add(BigInt(key), vector);
  }

  remove(key: number): boolean {
    if (!this.exact.remove(key)) return false;
    this.index.remove(BigInt(key));
    return true;
  }

  get(key: number): Float32Array | undefined {
    return this.exact.get(key);
  }

  similarity(key: number, query: Float32Array): number | undefined {
    return this.exact.similarity(key, query);
  }

  search(query: Float32Array, k: number, minScore = -Infinity, filter?: (key: number) => boolean): VectorHit[] {
    if (k <= 0 || this.size === 0) return [];
    const want = Math.min(this.size, filter ? k * this.overfetch : k);
    const m = this.index.search(query, want, 1);
    const hits: VectorHit[] = [];
    for (let i = 0; i < m.keys.length; i++) {
      const key = Number(m.keys[i]!);
      if (filter && !filter(key)) continue;
      // Exact similarity from the Float32 copy (the graph's i8 distances are approximate).
      const s = this.exact.similarity(key, query);
      if (s === undefined || s < minScore) continue;
      hits.push({ key, score: s });
    }
    hits.sort((a, b) => b.score - a.score || a.key - b.key);
    return hits.slice(0, k);
  }

  memoryBytes(): number {
    return this.exact.memoryBytes() + (this.index.memoryUsage?.() ?? 0);
  }
}
