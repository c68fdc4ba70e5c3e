// Group commit: writes that arrive while the event loop is busy are applied together, each in a
// savepoint of its own, under one transaction, so one fsync serves them all. Each caller hears its own
// outcome (its value, or its error with its savepoint rolled back) only once the commit is on disk.
import type { Database as Db } from 'better-sqlite3';
import { unavailableOr } from './errors.js';

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  private queue: Queued[] = [];

  constructor(private readonly db: Db) {}

  /** Runs `work` (synchronous SQL) in the next group; resolves once its group is committed. */
  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queued = this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (queued === 1) setImmediate(() => this.commitQueued());
    });
  }

  /** Commits whatever is queued now (also called on close, so nothing acknowledged is left behind). */
  commitQueued(): void {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.db
        .transaction(() => {
          for (const op of batch) {
            try {
              outcomes.push({ ok: true, value: this.db.transaction(op.work)() });
            } catch (error) {
              // Some failures (disk full, I/O error) roll back the whole transaction, not just the op's
              // savepoint: then the group is abandoned, or later ops would commit on their own.
              if (!this.db.inTransaction) throw error;
              outcomes.push({ ok: false, error: unavailableOr(error) });
            }
          }
        })
        .immediate();
    } catch (error) {
      const failure = unavailableOr(error);
      for (const op of batch) op.reject(failure);
      return;
    }
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }
}
