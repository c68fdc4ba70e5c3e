// Item vectors for the registry's search index: computed by the embedding worker off the request path,
// kept in the store per model (so a restart does not re-embed, and a model change re-embeds in the
// background), and given to each kind's engine once their length is known. `left` counts the items
// without a vector; every failure waits longer before the next attempt (Backoff), so a failing endpoint
// is asked a few times a minute at most, never in a loop.
import { Backoff } from './embeddings/backoff.js';
import type { WorkerEmbeddings } from './embeddings/worker.js';
import { embeddingText } from './document.js';
import type { IndexFeed, SearchKind } from './feed.js';
import type { KindIndex } from './registry-index.js';
import type { VectorIndex } from './vectors.js';

const BATCH = 1_000;
const EMBED_BATCH = 16;
const IDLE_MS = 2_000;

interface Log {
  warn(details: object, message: string): void;
}

export class ItemVectors {
  /** Items without a vector of this model (counted after each round, raised by changes meanwhile). */
  left = 0;
  private closed = false;
  private wake: (() => void) | null = null;
  private readonly backoff: Backoff;

  constructor(
    private readonly feed: IndexFeed,
    private readonly worker: WorkerEmbeddings,
    private readonly indexes: () => Record<SearchKind, KindIndex>,
    private readonly vectorIndex: (dimensions: number) => VectorIndex,
    options: { backoff?: { baseMs?: number; maxMs?: number }; log: () => Log | undefined },
  ) {
    this.backoff = new Backoff(options.backoff);
    this.log = options.log;
  }

  private readonly log: () => Log | undefined;

  get model(): string {
    return this.worker.id;
  }

  /** Counts the items without a vector. */
  async count(): Promise<void> {
    this.left =
      (await this.feed.countItemsWithoutVectors('skill', this.model)) +
      (await this.feed.countItemsWithoutVectors('unit', this.model));
  }

  /** Items whose text changed: they need a new vector. */
  changed(n: number): void {
    this.left += n;
    this.wake?.();
  }

  start(): void {
    void this.loop();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /**
   * Once the vectors' length is known (configured, or learned from the worker's first answer), gives each
   * engine without one its vector index and loads the vectors the store keeps for this model.
   */
  async load(): Promise<void> {
    const dims = this.worker.dimensions;
    if (dims === 0) return;
    const indexes = this.indexes();
    for (const kind of ['skill', 'unit'] as const) {
      const engine = indexes[kind].engine;
      if (engine.vectors) continue;
      engine.vectors = this.vectorIndex(dims);
      let after = 0;
      for (;;) {
        const vectors = await this.feed.itemVectors(kind, this.model, after, BATCH);
        for (const { seq, vector } of vectors) if (vector.length === dims) engine.setVector(seq, vector);
        if (vectors.length < BATCH) break;
        after = vectors[vectors.length - 1]!.seq;
      }
    }
  }

  /** Embeds the items that have no vector of this model yet; sleeps when there are none. */
  private async loop(): Promise<void> {
    const worker = this.worker;
    while (!this.closed) {
      try {
        // Without a configured length, the first answer says it.
        if (worker.dimensions === 0) await worker.embed(['dimensions']);
        await this.load();
        let did = 0;
        for (const kind of ['skill', 'unit'] as const) {
          const items = await this.feed.itemsWithoutVectors(kind, this.model, EMBED_BATCH);
          if (items.length === 0) continue;
          const vectors = await worker.embed(items.map((item) => embeddingText(item)));
          if (vectors.length !== items.length)
            throw new Error(`the embedding worker returned ${vectors.length} vectors for ${items.length} items`);
          const rows = items.map((item, i) => ({ seq: item.seq, vector: vectors[i]! }));
          await this.feed.saveVectors(kind, this.model, rows);
          const engine = this.indexes()[kind].engine;
          for (const { seq, vector } of rows) engine.setVector(seq, vector);
          did += items.length;
        }
        this.backoff.succeeded();
        await this.count();
        if (did === 0) await this.sleep(IDLE_MS);
      } catch (error) {
        if (this.closed) return;
        const wait = this.backoff.failed();
        this.log()?.warn(
          { err: error, failures: this.backoff.streak, retryInMs: wait },
          'embedding items failed; retrying later',
        );
        await this.sleep(wait);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
