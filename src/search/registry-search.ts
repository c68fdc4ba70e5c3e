// The registry's search index: one SearchEngine for skills and one for units, derived from the store.
// Loaded from its snapshot or built in the background at start-up (a search meanwhile waits for it, within
// a bound, then is refused as unavailable); then kept current by following the store's change log before
// every search (a write through any instance is seen by the next request) and every few seconds. Item
// vectors come from one embedding worker, off the request path. Elsewhere: each kind's engine and filter
// (registry-index.ts), building and following the log (registry-sync.ts), one search (registry-query.ts),
// the snapshot's match (registry-snapshots.ts), options (registry-options.ts), /readyz figures
// (registry-status.ts), timers (periodic-tasks.ts), waits (readiness.ts).
import type { IndexFeed, SearchChange, SearchKind } from './feed.js';
import { createProvider } from './embeddings/factory.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { WorkerEmbeddings } from './embeddings/worker.js';
import type { VocabularyStatus } from './lexical.js';
import { defaultVectorIndex, KindIndex, type SearchFilter } from './registry-index.js';
import { ItemVectors } from './item-vectors.js';
import {
  heapFull,
  type ChangeListener,
  type Log,
  type RegistrySearchOptions,
  type SearchHits,
  type SearchStatus,
  PURGE_EVERY_MS,
  SHUTDOWN_SAVE_MS,
  SNAPSHOT_EVERY_MS,
  START_WAIT_MS,
  SYNC_EVERY_MS,
  termLimits,
} from './registry-options.js';
import { FullVocabularyNotice, loadingText, MemoryFigures } from './registry-status.js';
import { searchIndex } from './registry-query.js';
import { applyChangeBatch, indexFromStore, purgeChangeLog, type BuildProgress } from './registry-sync.js';
import { ChangeCursor } from './change-cursor.js';
import { SnapshotKeeper } from './snapshot-keeper.js';
import { PeriodicTasks } from './periodic-tasks.js';
import { Readiness, settledWithin } from './readiness.js';
import { loadMatchingSnapshot, snapshotShape } from './registry-snapshots.js';
import { ReadWriteGate } from './gate.js';
import { defaultScoringWorkers, ScoringPool } from './scoring-pool.js';

export class RegistrySearch {
  private indexes: Record<SearchKind, KindIndex>;
  private readonly makeIndexes: () => Record<SearchKind, KindIndex>;
  private readonly snapshots: SnapshotKeeper | null;
  private readonly provider: EmbeddingProvider;
  private readonly worker: WorkerEmbeddings | null;
  /** Where the index stands in the store's change log (replaced by each build and snapshot load). */
  private cursor = new ChangeCursor({ tx: 0, seq: 0 });
  private syncing: Promise<void> | null = null;
  private built = false;
  /** 1 while the index is being built (searches are refused meanwhile), 0 after. */
  private buildLeft = 1;
  /** Items indexed so far of those the build goes through. */
  private progress: BuildProgress = { done: 0, total: 0 };
  private closed = false;
  private log: Log | undefined;
  private readonly tasks = new PeriodicTasks(() => this.log);
  /** Item vectors, with embeddings on. */
  private readonly vectors: ItemVectors | null;
  private readonly readiness = new Readiness();
  private readonly startWaitMs: number;
  /** Scoring off the event loop (scoring-pool.ts); null with no workers. */
  private readonly pool: ScoringPool | null;
  /** Searches read the index, the change log's batches write it (gate.ts). */
  private readonly gate = new ReadWriteGate();

  constructor(
    private readonly feed: IndexFeed,
    options: RegistrySearchOptions,
  ) {
    this.log = options.log;
    this.startWaitMs = options.startWaitMs ?? START_WAIT_MS;
    const workers = options.scoringWorkers ?? defaultScoringWorkers();
    this.pool =
      workers > 0
        ? new ScoringPool(workers, options.scoringMinPostings, (err) =>
            this.log?.warn({ err }, 'a search scoring worker failed; its searches were scored on the event loop'),
          )
        : null;
    this.worker = options.embeddings.kind === 'none' ? null : new WorkerEmbeddings(options.embeddings);
    this.provider = this.worker ?? createProvider({ kind: 'none' });
    this.vectors = this.worker
      ? new ItemVectors(feed, this.worker, () => this.indexes, options.vectorIndex ?? defaultVectorIndex, {
          ...(options.embedBackoff ? { backoff: options.embedBackoff } : {}),
          log: () => this.log,
        })
      : null;
    const limits = termLimits(options);
    const bounds = { limits, memoryFull: options.memoryFull ?? heapFull };
    this.makeIndexes = () => ({
      skill: new KindIndex('skill', this.provider, bounds),
      unit: new KindIndex('unit', this.provider, bounds),
    });
    this.indexes = this.makeIndexes();
    const shape = snapshotShape(this.indexes, limits);
    this.snapshots = options.snapshotDir ? new SnapshotKeeper(options.snapshotDir, shape, () => this.log) : null;
  }

  /** Settles once the index is first built (or failed, or closed). */
  get ready(): Promise<void> {
    return this.readiness.first;
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
        this.tasks.every(SYNC_EVERY_MS, () => this.sync(), 'search index sync failed');
        this.tasks.every(PURGE_EVERY_MS, () => this.purgeChangeLog(), 'purging the search change log failed');
        if (this.snapshots)
          this.tasks.every(SNAPSHOT_EVERY_MS, () => this.saveSnapshot(), 'saving the search index snapshot failed');
        this.vectors?.start();
      },
      (error: unknown) => {
        this.log?.warn({ err: error }, 'building the search index failed; searches are refused until a restart');
        this.readiness.signal();
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.tasks.stop();
    this.vectors?.close();
    this.readiness.signal();
    // What the index has applied is saved for the next start, within the shutdown's grace: a save that
    // takes longer is left unfinished (the previous file stays, and the next start catches up from it).
    // Changes logged since the last sync are applied first, so a deletion's words are not saved again.
    const synced = this.sync().catch((error: unknown) => this.log?.warn({ err: error }, 'search index sync failed'));
    await settledWithin(
      synced.then(() => this.saveSnapshot()),
      SHUTDOWN_SAVE_MS,
    );
    await this.worker?.close();
    await this.pool?.close();
  }

  /** Forgets the change log's oldest entries (registry-sync.ts). */
  purgeChangeLog(): Promise<number> {
    return purgeChangeLog(this.feed);
  }

  /** What `/readyz` reports once the index has taken every change so far: what is pending, each vocabulary. */
  async status(): Promise<SearchStatus> {
    await this.sync().catch((error: unknown) => this.log?.warn({ err: error }, 'search index sync failed'));
    const memory = await this.memoryFigures.of(this.indexes);
    const status: SearchStatus = {
      ready: this.built,
      pending: this.buildLeft + (this.vectors?.left ?? 0),
      model: this.model,
      vocabulary: this.vocabulary(),
      memory,
    };
    if (!this.built) status.loading = loadingText(this.progress);
    return status;
  }

  private readonly memoryFigures = new MemoryFigures();

  vocabulary(): Record<SearchKind, VocabularyStatus> {
    return {
      skill: this.indexes.skill.engine.lexical.vocabulary(),
      unit: this.indexes.unit.engine.lexical.vocabulary(),
    };
  }

  /** Says once, in the log, when a vocabulary starts refusing new terms (and why). */
  private noteFullVocabulary(kind: SearchKind): void {
    this.fullVocabulary.note(kind, this.indexes[kind].engine.lexical.vocabulary(), this.log);
  }
  private readonly fullVocabulary = new FullVocabularyNotice();

  /** Whether searches can be answered (until then they wait, then are refused as unavailable). */
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
    this.readiness.signal();
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
    const position = await loadMatchingSnapshot(
      this.snapshots,
      this.feed,
      fresh,
      (done, total) => (this.progress = { done, total }),
      () => this.log,
    );
    if (position === null) return false;
    this.indexes = fresh;
    this.cursor = new ChangeCursor(position);
    for (const kind of ['skill', 'unit'] as const) this.noteFullVocabulary(kind);
    return true;
  }

  private saveSnapshot(): Promise<void> {
    const snapshots = this.snapshots;
    if (!this.built || !snapshots) return Promise.resolve();
    // Taken before the save begins: the index holds at least what it had applied then.
    const position = this.cursor.settled;
    return this.feed.changeLogState().then(
      ({ database, last }) => snapshots.save(this.indexes, { database, position, last }),
      (error: unknown) =>
        this.log?.warn({ err: error }, 'saving the search index snapshot failed: the database did not answer'),
    );
  }

  /** Builds the index from the store (registry-sync.ts); `loading` says how far it is. */
  private async buildFromStore(): Promise<void> {
    // Taken before the items are read: what a transaction still running writes is applied by the catch-up.
    this.cursor = new ChangeCursor(await this.feed.changeLogStart());
    await indexFromStore(this.feed, this.indexes, {
      started: (progress) => (this.progress = progress),
      closed: () => this.closed,
      indexed: (kind) => this.noteFullVocabulary(kind),
    });
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
    // Each batch is applied when no search is reading the index (a scoring worker may be), before the next one reads it.
    const followed = await this.cursor.follow(this.feed, (changes) => this.gate.write(() => this.apply(changes)));
    if (followed === 'fell-behind') {
      // Changes this index had not passed were purged: rebuild from the store.
      this.log?.warn({ settled: this.cursor.settled }, 'the search index fell behind the change log; rebuilding');
      for (const listener of this.listeners) for (const kind of ['skill', 'unit'] as const) listener(kind, null);
      this.indexes = this.makeIndexes();
      this.built = false;
      this.buildLeft = 1;
      await this.build(false);
    }
  }

  /** Tells `listener` the items each change the index applies touches (null: any item, on a rebuild). */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }
  private readonly listeners: ChangeListener[] = [];

  private apply(changes: SearchChange[]): Promise<void> {
    return applyChangeBatch(
      this.feed,
      () => this.indexes,
      changes,
      this.listeners,
      (kind, changed) => {
        this.noteFullVocabulary(kind);
        // New text needs a new vector: counted now, recounted by the embedding loop.
        this.vectors?.changed(changed);
      },
    );
  }

  /**
   * The best matches of `q` among the items `filter` admits (every item when null), best first: relevance,
   * then quality, newest and sequence for exact ties. While the index is being built the search waits for
   * it, up to `startWaitMs`; null when it is still not built then.
   */
  async search(
    kind: SearchKind,
    q: string,
    filter: SearchFilter | null,
    limit: number,
    offset: number,
  ): Promise<SearchHits | null> {
    if (!this.built && !this.closed) await this.readiness.within(this.startWaitMs);
    if (!this.built) return null;
    await this.sync();
    return this.gate.read(() => searchIndex(this.indexes[kind], this.worker, this.pool, q, filter, limit, offset));
  }
}
