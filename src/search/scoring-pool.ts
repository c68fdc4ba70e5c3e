// Scoring off the event loop: a pool of worker threads (scoring-worker.ts) that find a query's lexical
// top-k while the main thread serves other requests. A job names its postings lists: a long list's arrays
// are in shared memory (postings.ts, from SHARED_FROM postings) and are read in place, shorter ones are
// copied into the job; the index's liveness and key columns are shared too (document-table.ts). A
// search's filter travels as data with the attribute columns it reads (filter.ts), also shared; queries
// whose lists are too short to be worth the trip (MIN_POSTINGS) are scored in the main thread.
//
// A worker reads the index while the main thread goes on, so the index must not change under a job: the
// registry applies changes only when no job is out (registry-search.ts, its read-write gate). A job's
// lists' lengths are taken when it is sent.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from './module-worker.js';
import type { ScoringPlan } from './lexical-query.js';
import { BLOCK, type PostingsList } from './postings.js';
import { isShared } from './typed-arrays.js';
import type { FilterColumns, ResolvedFilter } from './filter.js';

/**
 * Below this many postings a query is scored in the main thread: a job's trip (its message, a worker's
 * turn, the answer) costs ~0.1 ms, about what scoring 20,000 postings costs there.
 */
export const MIN_POSTINGS = 20_000;

/** A list as a job carries it: scoring's arrays (shared, or copies), its length, its query weight. */
export interface JobList extends PostingsList {
  w: number;
}

export interface ScoringJob {
  id: number;
  lists: JobList[];
  /** The top-k, by the strategy chosen; or, when k is 0, the matches counted up to `cap`. */
  k: number;
  cap: number;
  exhaustive: boolean;
  /** One past the highest ordinal. */
  ordinals: number;
  alive: Uint8Array;
  /** A filter: the index's keys by ordinal, the attribute columns and the filter. */
  filter?: JobFilter;
}

export interface JobFilter {
  keys: Float64Array;
  columns: FilterColumns;
  resolved: ResolvedFilter;
}

/** A job's top-k, best first: ordinals, scores and matched terms (or its count), or why it failed. */
export interface ScoringAnswer {
  id: number;
  count: number;
  ords: Int32Array;
  scores: Float64Array;
  matched: Uint8Array;
  error?: string;
}

interface Slot {
  worker: Worker | null;
  /** Jobs sent to it and not answered yet. */
  out: Set<number>;
}

/** The default number of workers: every core but the one the event loop runs on, at least one. */
export const defaultScoringWorkers = (): number => Math.max(1, Math.min(4, availableParallelism() - 1));

export class ScoringPool {
  private readonly slots: Slot[];
  private readonly waiting = new Map<number, { resolve(a: ScoringAnswer): void; reject(e: Error): void }>();
  private nextId = 1;
  private closed = false;
  /** Jobs answered, and jobs failed (their searches were scored in the main thread instead), since start. */
  answered = 0;
  failed = 0;

  constructor(
    readonly size: number,
    readonly minPostings = MIN_POSTINGS,
    /** Hears a job that failed, or a worker that failed or exited while the pool was open. */
    private readonly failure: (error: Error) => void = () => undefined,
  ) {
    this.slots = Array.from({ length: size }, () => ({ worker: null, out: new Set<number>() }));
  }

  /** Whether lists of this many postings go to a worker (else the caller scores or counts them). */
  takes(postings: number): boolean {
    return !this.closed && this.size > 0 && postings >= this.minPostings;
  }

  /** Jobs sent and not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** The plan's top-k, scored by the least busy worker (started on first use). */
  score(plan: ScoringPlan, k: number, ordinals: number, alive: Uint8Array, filter?: JobFilter): Promise<ScoringAnswer> {
    const lists = plan.qs.map(({ p, w }) => jobList(p, w));
    return this.send({ lists, k, cap: 0, exhaustive: plan.exhaustive, ordinals, alive, ...(filter ? { filter } : {}) });
  }

  /** The live documents (that `filter` admits) in at least one of the lists, counted up to `cap` by a worker. */
  async count(
    lists: readonly PostingsList[],
    cap: number,
    ordinals: number,
    alive: Uint8Array,
    filter?: JobFilter,
  ): Promise<number> {
    const job = { lists: lists.map((p) => jobList(p, 1)), k: 0, cap, exhaustive: true, ordinals, alive };
    return (await this.send({ ...job, ...(filter ? { filter } : {}) })).count;
  }

  private send(job: Omit<ScoringJob, 'id'>): Promise<ScoringAnswer> {
    if (this.closed) return Promise.reject(new Error('the scoring pool is closed'));
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.out.size < slot.out.size) slot = s;
    const worker = slot.worker ?? this.start(slot);
    const id = this.nextId++;
    return new Promise<ScoringAnswer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      slot.out.add(id);
      worker.postMessage({ ...job, id });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
  }

  private start(slot: Slot): Worker {
    const worker = moduleWorker('./scoring-worker', import.meta.url);
    worker.unref();
    worker.on('message', (answer: ScoringAnswer) => {
      slot.out.delete(answer.id);
      const w = this.waiting.get(answer.id);
      if (!w) return;
      this.waiting.delete(answer.id);
      if (answer.error !== undefined) {
        this.failed++;
        const error = new Error(answer.error);
        this.failure(error);
        w.reject(error);
      } else {
        this.answered++;
        w.resolve(answer);
      }
    });
    let reported = false;
    const fail = (error: Error) => {
      if (!this.closed && !reported) this.failure(error);
      reported = true;
      for (const id of slot.out) {
        this.failed++;
        this.waiting.get(id)?.reject(error);
        this.waiting.delete(id);
      }
      slot.out.clear();
      // The next job starts another.
      if (slot.worker === worker) slot.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('a scoring worker exited')));
    slot.worker = worker;
    return worker;
  }
}

/** A list as a job carries it: its shared arrays as they are, copies of the others (as long as the list). */
function jobList(p: PostingsList, w: number): JobList {
  const n = p.length;
  const nb = Math.ceil(n / BLOCK);
  const take = <T extends Int32Array | Uint16Array>(a: T, len: number): T => (isShared(a) ? a : (a.slice(0, len) as T));
  return {
    docs: take(p.docs, n),
    imp: take(p.imp, n),
    length: n,
    blockLast: p.blockLast === null ? null : take(p.blockLast, nb),
    blockMax: p.blockMax === null ? null : take(p.blockMax, nb),
    w,
  };
}
