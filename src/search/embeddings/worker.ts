// Embedding off the request path: a provider running on a worker thread, with two queues so that a query
// never waits behind a bulk of items (items go in small slices; queries go first), and an LRU cache of
// query vectors. The main thread only posts messages. Without a configured length, the vectors' length is
// learned from the first answer. After a failed query, queries wait for a back-off (searches rank lexically
// meanwhile), so a failing endpoint is not asked once per search.
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../module-worker.js';
import { Backoff } from './backoff.js';
import { BUILTIN_ID } from './builtin.js';
import type { ProviderSpec } from './factory.js';
import { endpointBase } from './openai.js';
import type { EmbeddingProvider } from './provider.js';

interface Job {
  texts: string[];
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

export interface WorkerEmbeddingsOptions {
  /** Items per message to the worker: small, so that a query waits at most one slice (~100 ms for USE). */
  itemSlice?: number;
  /** Query vectors kept (LRU). */
  queryCacheSize?: number;
  /** How long queries wait after a failed one (default: 1 s doubling to 5 min, jittered). */
  backoff?: { baseMs?: number; maxMs?: number };
}

export class WorkerEmbeddings implements EmbeddingProvider {
  readonly id: string;
  /** 0 until the first answer when the spec does not say. */
  dimensions: number;
  private worker: Worker | null = null;
  private readonly queries: Job[] = [];
  private readonly items: Job[] = [];
  private busy = false;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private readonly cache = new Map<string, Float32Array>();
  private readonly itemSlice: number;
  private readonly cacheSize: number;
  private readonly queryBackoff: Backoff;

  constructor(
    private readonly spec: ProviderSpec,
    options: WorkerEmbeddingsOptions = {},
  ) {
    if (spec.kind === 'none') throw new Error('no worker is needed without embeddings');
    this.id = spec.kind === 'builtin' ? BUILTIN_ID : `openai:${spec.model}@${endpointBase(spec.url)}`;
    this.queryBackoff = new Backoff(options.backoff);
    this.dimensions = spec.kind === 'builtin' ? 512 : (spec.dimensions ?? 0);
    this.itemSlice = options.itemSlice ?? 2;
    this.cacheSize = options.queryCacheSize ?? 10_000;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = moduleWorker('./worker-entry', import.meta.url, { workerData: this.spec });
    w.unref();
    w.on('message', (msg: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error !== undefined) p.reject(new Error(msg.error));
      else this.accept(msg.vectors!, p);
    });
    w.on('error', (err) => this.failAll(err));
    w.on('exit', () => {
      this.worker = null;
      this.failAll(new Error('embedding worker exited'));
    });
    this.worker = w;
    return w;
  }

  /** Vectors of the known length (the first answer's when the spec gave none), else a rejection. */
  private accept(
    vectors: Float32Array[],
    p: { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void },
  ): void {
    if (this.dimensions === 0 && vectors.length > 0) this.dimensions = vectors[0]!.length;
    if (vectors.some((v) => v.length !== this.dimensions || this.dimensions === 0))
      p.reject(new Error(`the embedding worker returned vectors of a length other than ${this.dimensions}`));
    else p.resolve(vectors);
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.busy = false;
  }

  private send(texts: string[]): Promise<Float32Array[]> {
    const w = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ id, texts });
    });
  }

  private pump(): void {
    if (this.busy) return;
    const job = this.queries.shift() ?? this.items.shift();
    if (!job) return;
    this.busy = true;
    this.send(job.texts)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  private enqueue(queue: Job[], texts: string[]): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      queue.push({ texts, resolve, reject });
      this.pump();
    });
  }

  /** Items: sliced so that queries can pass between slices. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const parts: Promise<Float32Array[]>[] = [];
    for (let i = 0; i < texts.length; i += this.itemSlice)
      parts.push(this.enqueue(this.items, texts.slice(i, i + this.itemSlice)));
    return (await Promise.all(parts)).flat();
  }

  /** One query: cached, and ahead of any item waiting. */
  async embedQuery(text: string): Promise<Float32Array> {
    const hit = this.cache.get(text);
    if (hit) {
      this.cache.delete(text);
      this.cache.set(text, hit);
      return hit;
    }
    let v: Float32Array | undefined;
    try {
      [v] = await this.enqueue(this.queries, [text]);
      this.queryBackoff.succeeded();
    } catch (error) {
      this.queryBackoff.failed();
      throw error;
    }
    this.cache.set(text, v!);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return v!;
  }

  /**
   * The query's vector if it is ready within `budgetMs` (cached, or computed in time), else null: the
   * caller then ranks lexically. A late vector still lands in the cache for the next identical query. While
   * queries back off after a failure, none is asked.
   */
  async embedQueryWithin(text: string, budgetMs: number): Promise<Float32Array | null> {
    const hit = this.cache.get(text);
    if (hit) return hit;
    if (this.queryBackoff.waiting) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), budgetMs);
    });
    const v = this.embedQuery(text).catch(() => null);
    try {
      return await Promise.race([v, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Items and queries waiting (not counting the one in the worker). */
  get queued(): number {
    return this.queries.length + this.items.length;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
