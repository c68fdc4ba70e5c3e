// The registry's search index: one SearchEngine for skills and one for knowledge units, derived from the
// store and rebuildable from it. Built in the background at start-up (searches go to the store's own
// full-text search until it is ready), then kept current by following the store's change log before
// every search (so a write, or a delete, through any instance is seen by the next request) and every
// few seconds. Item vectors come from one embedding worker, are kept in the store per model, and are
// computed off the request path; `pending` counts what is not indexed or embedded yet. Each kind's engine,
// attribute table and filter predicate: registry-index.ts.
import { getHeapStatistics } from 'node:v8';
import type { IndexFeed, SearchChange, SearchKind } from './feed.js';
import { createProvider, type ProviderSpec } from './embeddings/factory.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { WorkerEmbeddings } from './embeddings/worker.js';
import type { TermLimits, VocabularyStatus } from './lexical.js';
import { defaultVectorIndex, KindIndex, type IndexMemory, type SearchFilter } from './registry-index.js';
import { ANALYZER_REVISION } from './analyzer.js';
import { ItemVectors } from './item-vectors.js';
import { inSlices } from './slices.js';
import { SnapshotKeeper } from './snapshot-keeper.js';
import type { VectorIndex } from './vectors.js';

/** A search answers at most this many matches (its `total` says when there were more): paging stops there. */
export const MAX_SEARCH_RESULTS = 1_000;
const BATCH = 1_000;
/** Items read per query while building: a batch is read on the event loop (SQLite) before it is sliced. */
const BUILD_BATCH = 200;
const SYNC_EVERY_MS = 2_000;
const KEPT_CHANGES = 100_000;
const PURGE_EVERY_MS = 15 * 60 * 1000;
/** The index is saved this often while changes arrive (and after a build, and at shutdown). */
const SNAPSHOT_EVERY_MS = 10 * 60 * 1000;
/** How long a shutdown waits for the last save (the process is given 10 s to stop). */
const SHUTDOWN_SAVE_MS = 6_000;
/** /readyz's memory figures are this old at most. */
const MEMORY_EVERY_MS = 10_000;
/** A query's vector is awaited this long; later, the search ranks lexically (the vector is cached for next time). */
const QUERY_VECTOR_BUDGET_MS = 20;
/** Distinct terms one item has indexed, at most (real skills: 118 at the median, 384 at most). */
export const ITEM_TERMS = 512;
/** Of those, terms new to the vocabulary (a new term costs ~1 KiB, a posting of a known one ~10 bytes). */
export const ITEM_NEW_TERMS = 256;
/** No new term is admitted while the V8 heap is fuller than this share of its limit. */
const HEAP_FULL_SHARE = 0.85;

/** Each kind's vocabulary bound (`total`) and what one agent's items may bring into it (`perAgent`). */
export interface VocabularyBounds {
  total: number;
  perAgent: number;
}

/** The heap is fuller than HEAP_FULL_SHARE of its limit. */
export function heapFull(): boolean {
  const heap = getHeapStatistics();
  return heap.used_heap_size > HEAP_FULL_SHARE * heap.heap_size_limit;
}

export interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface SearchHits {
  /** Item sequences, best first, `offset` … `offset + limit`. */
  seqs: number[];
  total: number;
  /** More than MAX_SEARCH_RESULTS matched: `total` is that bound. */
  capped: boolean;
}

/** Hears which items of a kind changed (null: any of them may have). */
export type ChangeListener = (kind: SearchKind, seqs: readonly number[] | null) => void;

export interface RegistrySearchOptions {
  /** Which embedding model, if any (REG_EMBEDDINGS). */
  embeddings: ProviderSpec;
  log?: Log;
  /** Tests: build and follow the feed, but never start the embedding worker loop on their own. */
  vectorIndex?: (dimensions: number) => VectorIndex;
  /** What items may add to each kind's vocabulary (unbounded when absent). */
  vocabulary?: VocabularyBounds;
  /** Whether memory is short (default: heapFull); new terms are then refused. */
  memoryFull?: () => boolean;
  /** How long the embedding loop waits after failures (default: 1 s doubling to 5 min, jittered). */
  embedBackoff?: { baseMs?: number; maxMs?: number };
  /** Where the index is saved and loaded from (snapshot.ts); without it, every start builds from the store. */
  snapshotDir?: string;
}

export interface SearchStatus {
  ready: boolean;
  /** While not ready: how far the index is, e.g. 'search index loading: 40% (400,000 of 1,000,000)'. */
  loading?: string;
  pending: number;
  model: string;
  vocabulary: Record<SearchKind, VocabularyStatus>;
  memory: Record<SearchKind, IndexMemory>;
}

export class RegistrySearch {
  private indexes: Record<SearchKind, KindIndex>;
  private readonly makeIndexes: () => Record<SearchKind, KindIndex>;
  private readonly snapshots: SnapshotKeeper | null;
  private snapshotTimer: NodeJS.Timeout | null = null;
  private readonly provider: EmbeddingProvider;
  private readonly worker: WorkerEmbeddings | null;
  private lastChange = 0;
  private syncing: Promise<void> | null = null;
  private built = false;
  /** 1 while the index is being built (searches then use the database), 0 after. */
  private buildLeft = 1;
  /** Items indexed so far of those the build goes through. */
  private progress = { done: 0, total: 0 };
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private purger: NodeJS.Timeout | null = null;
  private log: Log | undefined;
  /** Item vectors, with embeddings on. */
  private readonly vectors: ItemVectors | null;
  readonly ready: Promise<void>;
  private markReady!: () => void;

  constructor(
    private readonly feed: IndexFeed,
    options: RegistrySearchOptions,
  ) {
    this.log = options.log;
    this.worker = options.embeddings.kind === 'none' ? null : new WorkerEmbeddings(options.embeddings);
    this.provider = this.worker ?? createProvider({ kind: 'none' });
    this.vectors = this.worker
      ? new ItemVectors(feed, this.worker, () => this.indexes, options.vectorIndex ?? defaultVectorIndex, {
          ...(options.embedBackoff ? { backoff: options.embedBackoff } : {}),
          log: () => this.log,
        })
      : null;
    const limits: TermLimits = {
      perDocument: ITEM_TERMS,
      newPerDocument: ITEM_NEW_TERMS,
      perOwner: options.vocabulary?.perAgent ?? Infinity,
      total: options.vocabulary?.total ?? Infinity,
    };
    const bounds = { limits, memoryFull: options.memoryFull ?? heapFull };
    this.makeIndexes = () => ({
      skill: new KindIndex('skill', this.provider, bounds),
      unit: new KindIndex('unit', this.provider, bounds),
    });
    this.indexes = this.makeIndexes();
    // A saved index is usable only by an index of the same shape: analysis, fields and bounds.
    const shape = (['skill', 'unit'] as const).map((kind) => {
      const c = this.indexes[kind].engine.config;
      return {
        analyzer: [ANALYZER_REVISION, c.analyzer],
        fields: c.fields,
        k1: c.k1,
        bodyWords: c.bodyWords,
        bodyProseOnly: c.bodyProseOnly,
        limits: Object.values(limits),
      };
    });
    this.snapshots = options.snapshotDir ? new SnapshotKeeper(options.snapshotDir, shape, () => this.log) : null;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Where warnings and the build's figures go (the app's logger, once it exists). */
  useLog(log: Log): void {
    this.log = log;
  }

  /** The model whose vectors the index uses ('none' without embeddings). */
  get model(): string {
    return this.provider.id;
  }

  /** Builds the index in the background, then follows the store; embeds what has no vector yet. */
  start(): void {
    void this.build().then(
      () => {
        if (this.closed) return;
        this.timer = setInterval(
          () => void this.sync().catch((error: unknown) => this.log?.warn({ err: error }, 'search index sync failed')),
          SYNC_EVERY_MS,
        );
        this.timer.unref();
        this.purger = setInterval(
          () =>
            void this.purgeChangeLog().catch((error: unknown) =>
              this.log?.warn({ err: error }, 'purging the search change log failed'),
            ),
          PURGE_EVERY_MS,
        );
        this.purger.unref();
        if (this.snapshots) {
          this.snapshotTimer = setInterval(() => void this.saveSnapshot(), SNAPSHOT_EVERY_MS);
          this.snapshotTimer.unref();
        }
        this.vectors?.start();
      },
      (error: unknown) => {
        this.log?.warn({ err: error }, 'building the search index failed; searches use the database until a restart');
        this.markReady();
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.purger) clearInterval(this.purger);
    if (this.snapshotTimer) clearInterval(this.snapshotTimer);
    this.vectors?.close();
    this.markReady();
    // What the index has applied is saved for the next start, within the shutdown's grace: a save that
    // takes longer is left unfinished (the previous file stays, and the next start catches up from it).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.saveSnapshot(),
      new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_SAVE_MS))),
    ]);
    clearTimeout(timer);
    await this.worker?.close();
  }

  /**
   * Forgets all but the last KEPT_CHANGES changes of the log (every instance follows it; one that falls
   * further behind rebuilds its index from the store).
   */
  async purgeChangeLog(): Promise<number> {
    const { last } = await this.feed.searchChangeBounds();
    return last > KEPT_CHANGES ? this.feed.purgeSearchChanges(last - KEPT_CHANGES) : 0;
  }

  /**
   * What `/readyz` reports, once the index has taken every change logged so far: items not indexed yet
   * (while building), items without a vector, and each vocabulary against its bound.
   */
  async status(): Promise<SearchStatus> {
    await this.sync().catch((error: unknown) => this.log?.warn({ err: error }, 'search index sync failed'));
    const memory = await this.memory();
    const status: SearchStatus = {
      ready: this.built,
      pending: this.buildLeft + (this.vectors?.left ?? 0),
      model: this.model,
      vocabulary: this.vocabulary(),
      memory,
    };
    if (!this.built) status.loading = this.loading();
    return status;
  }

  /**
   * Each index's figures. Computing them walks the vocabulary (in slices, so requests are served
   * meanwhile); with a large one, at most every MEMORY_EVERY_MS, and callers at the same moment share one walk.
   */
  private async memory(): Promise<Record<SearchKind, IndexMemory>> {
    const now = Date.now();
    const cheap =
      this.indexes.skill.engine.lexical.vocabularySize + this.indexes.unit.engine.lexical.vocabularySize < 100_000;
    const cache = this.memoryCache;
    if (!cheap && cache && cache.of === this.indexes && now - cache.at < MEMORY_EVERY_MS) return cache.figures;
    if (this.memoryWalk) return this.memoryWalk;
    const of = this.indexes;
    this.memoryWalk = (async () => {
      const figures = { skill: await of.skill.memory(), unit: await of.unit.memory() };
      this.memoryCache = { at: now, of, figures };
      return figures;
    })().finally(() => (this.memoryWalk = null));
    return this.memoryWalk;
  }
  private memoryWalk: Promise<Record<SearchKind, IndexMemory>> | null = null;
  /** The figures, when, and of which indexes (a load or a rebuild replaces them). */
  private memoryCache: {
    at: number;
    of: Record<SearchKind, KindIndex>;
    figures: Record<SearchKind, IndexMemory>;
  } | null = null;

  /** How far the build is, in words. */
  private loading(): string {
    const { done, total } = this.progress;
    const n = (x: number) => x.toLocaleString('en-US');
    const share = total > 0 ? Math.min(99, Math.floor((100 * done) / total)) : 0;
    return `search index loading: ${share}% (${n(done)} of ${n(total)})`;
  }

  vocabulary(): Record<SearchKind, VocabularyStatus> {
    return {
      skill: this.indexes.skill.engine.lexical.vocabulary(),
      unit: this.indexes.unit.engine.lexical.vocabulary(),
    };
  }

  /** Says once, in the log, when a vocabulary starts refusing new terms (and why). */
  private noteFullVocabulary(kind: SearchKind): void {
    const status = this.indexes[kind].engine.lexical.vocabulary();
    if (status.full === false) this.fullNoted[kind] = false;
    if (status.full === false || this.fullNoted[kind]) return;
    this.fullNoted[kind] = true;
    this.log?.warn(
      { kind, ...status },
      'the search vocabulary is full: new words are not indexed (raise REG_SEARCH_MAX_TERMS or the heap)',
    );
  }
  private readonly fullNoted: Record<SearchKind, boolean> = { skill: false, unit: false };

  /** Whether searches can be answered from the index (else: the database's full-text search). */
  get isReady(): boolean {
    return this.built;
  }

  /**
   * Makes the index: loaded from its snapshot when there is a usable one, else built from the store; then
   * caught up from the change log. `loading` says how far it is meanwhile.
   */
  private async build(useSnapshot = true): Promise<void> {
    const started = Date.now();
    const loaded = useSnapshot && (await this.loadSnapshot());
    if (!loaded) await this.buildFromStore();
    if (this.closed) return;
    await this.vectors?.load();
    await this.vectors?.count();
    // Caught up before it answers (and directly: a rebuild runs inside a sync, which must not wait for itself).
    await this.applyChanges();
    this.built = true;
    this.buildLeft = 0;
    this.markReady();
    this.log?.info(
      {
        skills: this.indexes.skill.attributes.size,
        units: this.indexes.unit.attributes.size,
        ms: Date.now() - started,
        model: this.model,
        from: loaded ? 'snapshot' : 'database',
      },
      'search index ready',
    );
    if (!loaded) void this.saveSnapshot();
  }

  /** The saved index, when there is one that matches this store; then the catch-up applies what followed it. */
  private async loadSnapshot(): Promise<boolean> {
    if (!this.snapshots) return false;
    const fresh = this.makeIndexes();
    const change = await this.snapshots.load(fresh, (done, total) => (this.progress = { done, total }));
    if (change === null) return false;
    const { first, last } = await this.feed.searchChangeBounds();
    // Newer than the store (a restored backup), or older than the log kept: rebuild.
    if (change > last || (first > change + 1 && first > 0)) {
      this.log?.warn(
        { change, first, last },
        'the search index snapshot does not match the change log; building the index from the database',
      );
      this.snapshots.stale();
      return false;
    }
    this.indexes = fresh;
    this.lastChange = change;
    for (const kind of ['skill', 'unit'] as const) this.noteFullVocabulary(kind);
    return true;
  }

  private saveSnapshot(): Promise<void> {
    return this.built && this.snapshots ? this.snapshots.save(this.indexes, this.lastChange) : Promise.resolve();
  }

  /**
   * Builds the index from the store: items in keyset batches, indexed in slices of a few milliseconds
   * (slices.ts) so that requests are served all along; `loading` says how far it is.
   */
  private async buildFromStore(): Promise<void> {
    const { last } = await this.feed.searchChangeBounds();
    this.lastChange = last;
    this.progress = {
      done: 0,
      total: (await this.feed.countSearchItems('skill')) + (await this.feed.countSearchItems('unit')),
    };
    for (const kind of ['skill', 'unit'] as const) {
      const index = this.indexes[kind];
      let after = 0;
      for (;;) {
        if (this.closed) return;
        const items = await this.feed.searchItems(kind, after, BUILD_BATCH);
        await inSlices(items, (item) => index.put(item));
        this.progress.done += items.length;
        this.noteFullVocabulary(kind);
        if (items.length < BUILD_BATCH) break;
        after = items[items.length - 1]!.seq;
      }
      await inSlices(index.engine.lexical.postingsLists(), (p) => p.trim());
    }
  }

  /** Applies every change logged since the last sync (one cheap query when nothing changed). */
  sync(): Promise<void> {
    if (!this.built) return Promise.resolve();
    this.syncing ??= this.applyChanges().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async applyChanges(): Promise<void> {
    const { first, last } = await this.feed.searchChangeBounds();
    if (first > this.lastChange + 1 && this.lastChange > 0) {
      // Changes this index missed were purged: rebuild from the store.
      this.log?.warn({ missedBefore: first }, 'the search index fell behind the change log; rebuilding');
      for (const listener of this.listeners) for (const kind of ['skill', 'unit'] as const) listener(kind, null);
      this.indexes = this.makeIndexes();
      this.built = false;
      this.buildLeft = 1;
      await this.build(false);
      return;
    }
    if (last <= this.lastChange) return; // nothing new: one query per search, not two
    for (;;) {
      const changes = await this.feed.searchChanges(this.lastChange, BATCH);
      if (changes.length === 0) return;
      await this.apply(changes);
      this.lastChange = changes[changes.length - 1]!.seq;
      if (changes.length < BATCH) return;
    }
  }

  /** Tells `listener` the items each change the index applies touches (null: any item, on a rebuild). */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }
  private readonly listeners: ChangeListener[] = [];

  private async apply(changes: SearchChange[]): Promise<void> {
    for (const kind of ['skill', 'unit'] as const) {
      const seqs = [...new Set(changes.filter((c) => c.kind === kind).map((c) => c.itemSeq))];
      if (seqs.length === 0) continue;
      for (const listener of this.listeners) listener(kind, seqs);
      const index = this.indexes[kind];
      const found = await this.feed.searchItemsBySeq(kind, seqs);
      const present = new Set(found.map((item) => item.seq));
      for (const seq of seqs) if (!present.has(seq)) index.drop(seq);
      let changed = 0;
      // In slices: a batch of changes (a catch-up after a start) must not hold the event loop.
      await inSlices(found, (item) => {
        if (index.put(item)) changed++;
      });
      this.noteFullVocabulary(kind);
      // New text needs a new vector: counted now, recounted by the embedding loop.
      this.vectors?.changed(changed);
    }
  }

  /**
   * The best matches of `q` among the items `filter` admits (every item when null), best first: relevance,
   * then quality, newest and sequence for exact ties. Null while the index is not built yet.
   */
  async search(
    kind: SearchKind,
    q: string,
    filter: SearchFilter | null,
    limit: number,
    offset: number,
  ): Promise<SearchHits | null> {
    if (!this.built) return null;
    await this.sync();
    const index = this.indexes[kind];
    const engine = index.engine;
    const admit = filter === null ? undefined : index.admit(filter);
    const queryVector =
      this.worker && engine.needsQueryVector(q) ? await this.worker.embedQueryWithin(q, QUERY_VECTOR_BUDGET_MS) : null;
    // Paging stops at the bound.
    const end = Math.min(offset + limit, MAX_SEARCH_RESULTS);
    const page = offset < end ? { limit: end - offset, offset } : { limit: 1, offset: 0 };
    const result = engine.search(q, {
      ...page,
      ...(admit ? { filter: admit } : {}),
      tieBreak: index.tieBreak,
      ...(queryVector ? { queryVector } : {}),
    });
    const matches = engine.countMatches(q, MAX_SEARCH_RESULTS + 1, admit) + (result.semanticOnly ?? 0);
    const seqs = offset < end ? result.hits.map((h) => h.key) : [];
    return { seqs, total: Math.min(matches, MAX_SEARCH_RESULTS), capped: matches > MAX_SEARCH_RESULTS };
  }
}
