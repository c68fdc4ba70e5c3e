// Disk cache of embeddings for the lab, outside git (default /work/scratch/search-lab/ or
// $SEARCH_LAB_CACHE): append-only records [sha1(text) 20 bytes][dims × float32], one file per provider.
// Resumable: an interrupted run keeps every batch it finished.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { EmbeddingProvider } from '../../src/search/embeddings/provider.js';

export const CACHE_DIR = process.env.SEARCH_LAB_CACHE ?? '/work/scratch/search-lab';

const sha1 = (t: string) => createHash('sha1').update(t).digest('hex');

export class EmbeddingCache {
  private readonly map = new Map<string, Float32Array>();
  readonly file: string;
  constructor(
    readonly providerId: string,
    readonly dims: number,
    dir = CACHE_DIR,
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${providerId.replace(/[^A-Za-z0-9._-]+/g, '_')}.bin`);
    if (existsSync(this.file)) {
      const buf = readFileSync(this.file);
      const rec = 20 + dims * 4;
      const n = Math.floor(buf.length / rec);
      for (let i = 0; i < n; i++) {
        const off = i * rec;
        const key = buf.subarray(off, off + 20).toString('hex');
        const v = new Float32Array(dims);
        Buffer.from(v.buffer).set(buf.subarray(off + 20, off + rec));
        this.map.set(key, v);
      }
    }
  }
  get size(): number {
    return this.map.size;
  }
  get(text: string): Float32Array | undefined {
    return this.map.get(sha1(text));
  }
  /** Embeds what the cache lacks, in batches, appending each batch to disk; returns vectors in order. */
  async embedAll(
    provider: EmbeddingProvider,
    texts: string[],
    batch = 64,
    progress?: (done: number, todo: number, perS: number) => void,
  ): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.map.has(sha1(t))))];
    const t0 = performance.now();
    for (let i = 0; i < missing.length; i += batch) {
      const part = missing.slice(i, i + batch);
      const vs = await provider.embed(part);
      const bufs: Buffer[] = [];
      part.forEach((t, j) => {
        const key = sha1(t);
        this.map.set(key, vs[j]!);
        bufs.push(Buffer.from(key, 'hex'), Buffer.from(vs[j]!.buffer, vs[j]!.byteOffset, vs[j]!.byteLength));
      });
      appendFileSync(this.file, Buffer.concat(bufs));
      progress?.(i + part.length, missing.length, (i + part.length) / ((performance.now() - t0) / 1000));
    }
    return texts.map((t) => this.map.get(sha1(t))!);
  }
}
