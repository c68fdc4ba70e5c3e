// The summaries of search hits, kept in memory between searches: the same items answer many searches, and
// reading a page of summaries from the store was the largest part of a search's cost. An entry is
// forgotten when the search index applies a change to its item (every write that changes what a summary
// shows is in the store's change log, which the index follows before each search, from any instance), so a
// search never answers a summary older than the index it was ranked by. Bounded in bytes: the oldest go
// first, but an entry read since the sweep last passed it gets another round (a hit costs a flag, not a
// move). Entries are frozen, since every request shares them.

/** Bytes the summaries of one kind may hold (estimated from their text). */
export const SUMMARY_CACHE_BYTES = 16 * 1024 * 1024;

/** A rough size of a summary: its text (a byte a character, as V8 keeps Latin-1 text) and a cost per value. */
export function estimatedBytes(value: unknown): number {
  if (typeof value === 'string') return 24 + value.length;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + estimatedBytes(v), 32);
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((n: number, v) => n + estimatedBytes(v), 48);
  return 16;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

interface Entry<T> {
  summary: T;
  bytes: number;
  /** Read since the eviction sweep last passed it (then it is given another round instead of going). */
  used: boolean;
}

export class SummaryCache<T> {
  /** In insertion order, which the eviction sweep follows (a second chance for entries read meanwhile). */
  private readonly entries = new Map<number, Entry<T>>();
  private bytes = 0;
  /** Counts forgettings: a read that began before one may hold what it forgot, and is not kept. */
  private generation = 0;

  constructor(private readonly maxBytes = SUMMARY_CACHE_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  /** Forgets these items (null: every item). */
  forget(seqs: readonly number[] | null): void {
    this.generation++;
    if (seqs === null) {
      this.entries.clear();
      this.bytes = 0;
      return;
    }
    for (const seq of seqs) {
      const e = this.entries.get(seq);
      if (!e) continue;
      this.entries.delete(seq);
      this.bytes -= e.bytes;
    }
  }

  /**
   * The summaries of `seqs` in their order, those not kept read with `load` (which answers them in the
   * order asked, leaving out items no longer there).
   */
  async read(seqs: readonly number[], load: (seqs: readonly number[]) => Promise<T[]>): Promise<T[]> {
    const found: (T | undefined)[] = [];
    const missing: number[] = [];
    for (const seq of seqs) {
      const e = this.entries.get(seq);
      if (e) e.used = true;
      else missing.push(seq);
      found.push(e?.summary);
    }
    if (missing.length === 0) return found as T[];
    const generation = this.generation;
    const loaded = await load(missing);
    // An item gone meanwhile shifts the answer: then nothing is kept, and the answer is the store's alone.
    if (loaded.length !== missing.length) return seqs.length === missing.length ? loaded : load(seqs);
    const keep = generation === this.generation;
    let next = 0;
    for (let i = 0; i < found.length; i++) {
      if (found[i] !== undefined) continue;
      const fresh = loaded[next++]!;
      if (keep) this.put(seqs[i]!, fresh);
      found[i] = fresh;
    }
    return found as T[];
  }

  private put(seq: number, summary: T): void {
    const bytes = estimatedBytes(summary);
    if (bytes > this.maxBytes || this.entries.has(seq)) return;
    this.entries.set(seq, { summary: deepFreeze(summary), bytes, used: false });
    this.bytes += bytes;
    for (const [oldest, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      if (e.used) {
        e.used = false;
        this.entries.set(oldest, e);
      } else this.bytes -= e.bytes;
    }
  }
}
