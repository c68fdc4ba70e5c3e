// Group commit on PostgreSQL: writes that arrive while a group is being written wait for the next one, and
// each group runs in one transaction on one connection, each write in a savepoint of its own, with one
// COMMIT (one WAL flush) for all. A write that fails rolls back to its savepoint and fails alone; every
// write is answered only once the COMMIT has returned. One group is written at a time per instance, so
// writes of one instance never wait on each other's row locks. The group's connection is pipelined: a
// write's savepoint goes out together with the write's first statement, not one round trip ahead of it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './connection.js';
import { isConflict, lockWaitedOut, mapError, refusedByServer } from './errors.js';
import { StoreUnavailableError } from '../store.js';

/** Writes per group: a group's savepoints stay within the subtransactions a session caches (64). */
export const GROUP_MAX_WRITES = 64;
/** A write chosen as a deadlock's victim (or losing a serialization conflict) is run again this often. */
export const CONFLICT_ATTEMPTS = 4;
/**
 * How long a write of a group waits for a row another transaction holds before it steps aside (and runs
 * again in a later group), so that one contended row never holds up the other writes of its group for long.
 */
export const GROUP_LOCK_WAIT_MS = 1_000;

export type Work<T> = (client: PoolClient) => Promise<T>;

interface Queued {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  conflicts: number;
}

const BEGIN_GROUP = `BEGIN; SET LOCAL lock_timeout = ${GROUP_LOCK_WAIT_MS}; SAVEPOINT w`;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown } | { retry: true; error: unknown };

/** Waits a little, more with each attempt, so the other side of a conflict can finish first. */
const backoff = (attempt: number) => sleep(5 + Math.random() * 20 * attempt);

/**
 * Runs a whole transaction again when PostgreSQL chose it as a deadlock's victim (or it lost a
 * serialization conflict): nothing of it was written, and a client should never hear it as an outage.
 * After a few tries the conflict is answered as the database being unavailable.
 */
export async function retryingConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
}

export class GroupCommit {
  private queue: Queued[] = [];
  private writing: Promise<void> | null = null;
  /** Writes not answered yet, and who waits for there to be none. */
  private pending = 0;
  private idle: (() => void)[] = [];

  /**
   * `pool` runs a write again alone after its group failed; `groups` holds the groups' connection, best
   * pipelined (createPool's `pipelined`), and may be the same pool.
   */
  constructor(
    private readonly pool: Pool,
    private readonly groups: Pool = pool,
    private readonly maxWrites = GROUP_MAX_WRITES,
  ) {}

  /** Runs `work` in the next group; resolves with its value once the group is committed. */
  write<T>(work: Work<T>): Promise<T> {
    this.pending += 1;
    return new Promise<T>((resolve, reject) => {
      const answered = () => {
        this.pending -= 1;
        if (this.pending === 0) for (const wake of this.idle.splice(0)) wake();
      };
      this.enqueue({
        work,
        resolve: (value) => {
          answered();
          resolve(value as T);
        },
        reject: (error) => {
          answered();
          reject(error);
        },
        conflicts: 0,
      });
    });
  }

  /** Resolves once every write taken so far has been answered (the store waits for it before closing). */
  drain(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private enqueue(op: Queued): void {
    this.queue.push(op);
    // The first write after a quiet spell starts a group at once: those that arrive in the same turn of
    // the event loop join it, and those that arrive while it is written wait for the next one.
    this.writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.writeGroups());
  }

  private async writeGroups(): Promise<void> {
    while (this.queue.length > 0) await this.writeGroup(this.queue.splice(0, this.maxWrites));
    this.writing = null;
  }

  private async writeGroup(group: Queued[]): Promise<void> {
    const outcomes = await this.commit(group);
    if (outcomes === 'failed') {
      // Nothing of the group was committed: each write runs again alone, and hears its own outcome.
      await Promise.all(group.map((op) => this.alone(op)));
      return;
    }
    group.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if ('retry' in outcome) this.again(op, outcome.error);
      else if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }

  /**
   * Writes the group and commits it: its outcomes, 'failed' when the transaction was lost before its
   * COMMIT or PostgreSQL refused the COMMIT (nothing written). A COMMIT whose answer never came (the
   * connection broke) may have been applied: every write of the group is then answered as unavailable,
   * as a single transaction would be, and never run again.
   */
  private async commit(group: Queued[]): Promise<Outcome[] | 'failed'> {
    let client: PoolClient;
    try {
      client = await this.groups.connect();
    } catch {
      return 'failed';
    }
    // A connection that ends between two statements reports it as an event, not through a query: listened
    // to here while the group holds it (the next statement then fails), or it would end the process.
    const ignore = () => {};
    client.on('error', ignore);
    const release = (error?: Error) => {
      client.off('error', ignore);
      client.release(error);
    };
    const outcomes: Outcome[] = [];
    try {
      for (const op of group) {
        // Opens the transaction (or releases the previous write's savepoint) and sets this one's; on a
        // pipelined connection the write's first statement follows it at once, in the same round trip.
        const mark = client.query(outcomes.length === 0 ? BEGIN_GROUP : 'RELEASE SAVEPOINT w; SAVEPOINT w');
        outcomes.push(await this.attempt(client, op, mark));
      }
    } catch (error) {
      // The connection broke (or cannot even roll back to a savepoint): it is destroyed, and the server
      // rolls the transaction back with the session.
      release(error as Error);
      return 'failed';
    }
    try {
      await client.query('COMMIT');
    } catch (error) {
      release(error as Error);
      if (refusedByServer(error)) return 'failed';
      const unknown = mapError(error);
      return group.map(() => ({ ok: false, error: unknown }));
    }
    release();
    return outcomes;
  }

  /**
   * One write in its savepoint (`mark`, sent just before it); its failure rolls back to the savepoint. A
   * savepoint that failed, or a failure to roll back to it, ends the group.
   */
  private async attempt(client: PoolClient, op: Queued, mark: Promise<unknown>): Promise<Outcome> {
    // Observed at once, so that its failure is never unhandled while the write runs; thrown below.
    const marked = mark.then(
      () => null,
      (error: unknown) => ({ error }),
    );
    let outcome: { value: unknown } | { error: unknown };
    try {
      outcome = { value: await op.work(client) };
    } catch (error) {
      outcome = { error };
    }
    const unmarked = await marked;
    if (unmarked) throw unmarked.error;
    if ('value' in outcome) return { ok: true, value: outcome.value };
    const mapped = mapError(outcome.error);
    await client.query('ROLLBACK TO SAVEPOINT w');
    // A deadlock's victim waited on a lock another transaction holds while waiting on one of this group's,
    // and a write that waited too long on another transaction's lock holds up the rest of its group: each
    // runs again in a later group (after this one's COMMIT has released its locks).
    if (isConflict(mapped) || lockWaitedOut(outcome.error)) return { retry: true, error: mapped };
    return { ok: false, error: mapped };
  }

  private again(op: Queued, error: unknown): void {
    op.conflicts += 1;
    if (op.conflicts >= CONFLICT_ATTEMPTS) {
      op.reject(
        error instanceof StoreUnavailableError
          ? error
          : new StoreUnavailableError('PostgreSQL: a row this write needs stayed locked by another transaction', {
              cause: error,
            }),
      );
      return;
    }
    void backoff(op.conflicts).then(() => this.enqueue(op));
  }

  /** A write in a transaction of its own (after its group failed). */
  private async alone(op: Queued): Promise<void> {
    try {
      op.resolve(await retryingConflicts(() => inTransaction(this.pool, op.work)));
    } catch (error) {
      op.reject(error instanceof StoreUnavailableError ? error : mapError(error));
    }
  }
}
