// Following the store's change log without ever stepping past a change that may still appear below.
//
// A change is numbered when it is written, not when its transaction commits: on PostgreSQL, with several
// writers, change 41 can become visible after change 42. So the log is read in (tx, seq) order (feed.ts)
// and a reader's position only moves over what is settled: below the horizon, the oldest transaction still
// running, nothing new can appear. What is visible beyond it is applied at once too (a committed write is
// searchable on the next request, from any instance), and remembered, so that it is not applied twice when
// the horizon passes it; a transaction that commits late, inside that window, is caught by reading the
// window again while it is small, and in any case when the horizon passes it. On SQLite every change is
// settled as soon as it is visible, and a read is one query, as before.
import type { ChangeRead, IndexFeed, LogPosition, SearchChange } from './feed.js';

/** Changes read per query. */
const CHANGE_BATCH = 1_000;
/**
 * The window between the settled position and the newest change seen is read again for late commits while
 * it holds at most this many changes; a larger one (a transaction left open a long time) waits for the
 * horizon instead, so that no search pays for reading it.
 */
const REREAD_WINDOW = 2_000;

const before = (a: LogPosition, b: LogPosition) => a.tx < b.tx || (a.tx === b.tx && a.seq < b.seq);
const at = (c: LogPosition): LogPosition => ({ tx: c.tx, seq: c.seq });
const key = (c: LogPosition) => `${c.tx}:${c.seq}`;

export type FollowResult = 'followed' | 'fell-behind';

export class ChangeCursor {
  /** Every change at or before it has been applied, and none can still appear there. */
  private settledAt: LogPosition;
  /** The newest change applied. */
  private seen: LogPosition;
  /** Changes applied between `settledAt` and `seen`. */
  private readonly ahead = new Set<string>();

  constructor(
    start: LogPosition,
    private readonly sizes = { batch: CHANGE_BATCH, window: REREAD_WINDOW },
  ) {
    this.settledAt = at(start);
    this.seen = at(start);
  }

  /** Where a reader starting again from this index's state must start (what a snapshot records). */
  get settled(): LogPosition {
    return this.settledAt;
  }

  /** Changes applied beyond the settled position (a figure for tests and status). */
  get applied(): number {
    return this.ahead.size;
  }

  /**
   * Applies every change the log shows since the last call, and settles what it can. 'fell-behind' when
   * changes this reader had not passed were purged (it must rebuild; nothing is applied then).
   */
  async follow(
    feed: Pick<IndexFeed, 'searchChanges'>,
    apply: (changes: SearchChange[]) => Promise<void>,
  ): Promise<FollowResult> {
    // What is new since the newest change seen.
    let read: ChangeRead;
    do {
      read = await feed.searchChanges(this.seen, this.sizes.batch);
      if (before(this.settledAt, read.purged)) return 'fell-behind';
      if (read.changes.length === 0) break;
      await apply(read.changes);
      for (const change of read.changes) {
        if (!before(this.settledAt, this.seen) && change.tx < read.horizon) this.settledAt = at(change);
        else this.ahead.add(key(change));
        this.seen = at(change);
      }
    } while (read.changes.length === this.sizes.batch);
    if (!before(this.settledAt, this.seen)) return 'followed';

    // Settles what the horizon has passed: changes applied ahead are let go, late commits applied now.
    const horizon: LogPosition = { tx: read.horizon, seq: 0 };
    const bound = before(horizon, this.seen) ? horizon : this.seen;
    while (before(this.settledAt, bound)) {
      const settling = await feed.searchChanges(this.settledAt, this.sizes.batch, bound);
      const late = settling.changes.filter((change) => !this.ahead.has(key(change)));
      if (late.length > 0) await apply(late);
      for (const change of settling.changes) this.ahead.delete(key(change));
      this.settledAt = settling.changes.length === this.sizes.batch ? at(settling.changes.at(-1)!) : bound;
    }

    // Late commits in the window still open, while it is small.
    if (before(this.settledAt, this.seen) && this.ahead.size <= this.sizes.window) {
      const window = await feed.searchChanges(this.settledAt, 2 * this.sizes.window, this.seen);
      const late = window.changes.filter((change) => !this.ahead.has(key(change)));
      if (late.length > 0) {
        await apply(late);
        for (const change of late) this.ahead.add(key(change));
      }
    }
    return 'followed';
  }
}
