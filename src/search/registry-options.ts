// What the registry's search index (registry-search.ts) is given and answers: its options, the bounds on
// what one item may bring into the vocabulary, the search bound, and the shapes of a search's hits and of
// the status `/readyz` reports.
import { getHeapStatistics } from 'node:v8';
import type { SearchKind } from './feed.js';
import type { ProviderSpec } from './embeddings/factory.js';
import type { TermLimits, VocabularyStatus } from './lexical.js';
import type { IndexMemory } from './registry-index.js';
import type { VectorIndex } from './vectors.js';

/** A search that arrives while the index is being built waits this long for it, then is refused. */
export const START_WAIT_MS = 20_000;
/** A search answers at most this many matches (its `total` says when there were more): paging stops there. */
export const MAX_SEARCH_RESULTS = 1_000;
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

/** What one item, one agent and all items may bring into each kind's vocabulary. */
export function termLimits(options: Pick<RegistrySearchOptions, 'vocabulary'>): TermLimits {
  return {
    perDocument: ITEM_TERMS,
    newPerDocument: ITEM_NEW_TERMS,
    perOwner: options.vocabulary?.perAgent ?? Infinity,
    total: options.vocabulary?.total ?? Infinity,
  };
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
  /** How long a search arriving while the index is built waits for it before it is refused (default: START_WAIT_MS). */
  startWaitMs?: number;
  /** Worker threads that score long queries off the event loop (scoring-pool.ts); 0: none (default: a core's worth less than all). */
  scoringWorkers?: number;
  /** Tests: the postings from which a query goes to a worker (default: MIN_POSTINGS). */
  scoringMinPostings?: number;
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

/** How often the index follows the change log between searches, and purges what every instance has applied. */
export const SYNC_EVERY_MS = 2_000;
export const PURGE_EVERY_MS = 15 * 60 * 1000;
/** The index is saved this often while changes arrive (and after a build, and at shutdown). */
export const SNAPSHOT_EVERY_MS = 10 * 60 * 1000;
/** How long a shutdown waits for the last save (the process is given 10 s to stop). */
export const SHUTDOWN_SAVE_MS = 6_000;
