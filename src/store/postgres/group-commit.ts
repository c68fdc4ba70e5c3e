// Group commit on PostgreSQL: writes that arrive while a group is being written wait for the next one, and
// each group runs in one transaction on one connection, each write in a savepoint of its own, with one
// COMMIT (one WAL flush) for all. A write that fails rolls back to its savepoint and fails alone; every
// write is answered only once the COMMIT has returned. One group is written at a time per instance, so
// writes of one instance never wait on each other's row locks. The group's connection is pipelined: a
// write's savepoint goes out together with the write's first statement, and a write may leave its last
// statement unanswered (Sent), so that the next write follows it in the same round trip.
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

/**
 * What a write answers when its last statement has been sent and not yet answered: its value, and that
 * statement. The group sends the next write's savepoint and first statement right behind it instead of
 * waiting a round trip for its answer, and counts the write only once the statement has succeeded (its
 * failure fails the write). For a last statement whose answer the write itself does not need.
 */
export class Sent<T> {
  constructor(
    readonly value: T,
    readonly last: Promise<unknown>,
  ) {}
}

export type Work<T> = (client: PoolClient) => Promise<T | Sent<T>>;

/** A write's value once its last statement, if left unanswered, has succeeded. */
async function answered<T>(result: T | Sent<T>): Promise<T> {
  if (!(result instanceof Sent)) return result;
  await result.last;
  return result.value as T;
}

interface Queued {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  conflicts: number;
}

const BEGIN_GROUP = `BEGIN; SET LOCAL lock_timeout = ${GROUP_LOCK_WAIT_MS}`;
/**
 * Write i of a group runs after savepoint w<i>, set inside the previous write's (never released before the
 * COMMIT), so that a write whose last statement fails after the next write was sent behind it rolls back
 * with everything sent after it, whatever the failure.
 */
const savepoint = (i: number) => `w${i}`;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown } | { retry: true; error: unknown };
type Failure = { error: unknown } | null;

/** A statement's failure as a value (null: it succeeded), observed at once so it is never unhandled. */
const settled = (statement: Promise<unknown>): Promise<Failure> =>
  statement.then(
    () => null,
    (error: unknown) => ({ error }),
  );

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
   * `pool` runs a write again alone after its group failed; `groups` holds the groups' connection, which
   * must be pipelined (createPool's `pipelined`): a write may leave a statement unanswered on it.
   */
  constructor(
    private readonly pool: Pool,
    private readonly groups: Pool,
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
      // The write before this one, whose last statement is still unanswered.
      let sent: { value: unknown; last: Promise<Failure> } | null = null;
      for (let i = 0; i < group.length;) {
        // Opens the transaction (the first time) and sets this write's savepoint; the connection is
        // pipelined, so the write's first statement follows at once, in the same round trip.
        const mark = client.query(`${i === 0 ? `${BEGIN_GROUP}; ` : ''}SAVEPOINT ${savepoint(i)}`);
        const started = this.start(client, group[i]!, mark);
        if (sent) {
          const previous = sent;
          sent = null;
          const failure = await previous.last;
          if (failure) {
            // The previous write failed at its last statement: it rolls back to its savepoint, with
            // what was sent behind it (run or, in a transaction that had stopped, failed unrun), and this
            // write starts again.
            await started.catch(() => {});
            outcomes.push(await this.undone(client, i - 1, failure.error));
            continue;
          }
          outcomes.push({ ok: true, value: previous.value });
        }
        const result = await started;
        if ('error' in result) outcomes.push(await this.undone(client, i, result.error));
        else if (result.last) sent = { value: result.value, last: result.last };
        else outcomes.push({ ok: true, value: result.value });
        i++;
      }
      if (sent) {
        const failure = await sent.last;
        const last = group.length - 1;
        outcomes.push(failure ? await this.undone(client, last, failure.error) : { ok: true, value: sent.value });
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
   * Runs one write after its savepoint (`mark`, sent just before it): its value (with its last statement
   * when left unanswered) or its error. Rejects when the savepoint failed, which ends the group.
   */
  private async start(
    client: PoolClient,
    op: Queued,
    mark: Promise<unknown>,
  ): Promise<{ value: unknown; last?: Promise<Failure> } | { error: unknown }> {
    // Observed at once, so that its failure is never unhandled while the write runs.
    const marked = settled(mark);
    let result: { value: unknown; last?: Promise<Failure> } | { error: unknown };
    try {
      const value = await op.work(client);
      // Left unanswered: a failed savepoint then fails the last statement too, and its rollback ends the group.
      if (value instanceof Sent) return { value: value.value, last: settled(Promise.all([mark, value.last])) };
      result = { value };
    } catch (error) {
      result = { error };
    }
    const unmarked = await marked;
    if (unmarked) throw unmarked.error;
    return result;
  }

  /** A write that failed rolls back to its savepoint (a failure to do so ends the group). */
  private async undone(client: PoolClient, i: number, error: unknown): Promise<Outcome> {
    const mapped = mapError(error);
    await client.query(`ROLLBACK TO SAVEPOINT ${savepoint(i)}`);
    // A deadlock's victim waited on a lock another transaction holds while waiting on one of this group's,
    // and a write that waited too long on another transaction's lock holds up the rest of its group: each
    // runs again in a later group (after this one's COMMIT has released its locks).
    if (isConflict(mapped) || lockWaitedOut(error)) return { retry: true, error: mapped };
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
      op.resolve(
        await retryingConflicts(() => inTransaction(this.pool, async (client) => answered(await op.work(client)))),
      );
    } catch (error) {
      op.reject(error instanceof StoreUnavailableError ? error : mapError(error));
    }
  }
}
