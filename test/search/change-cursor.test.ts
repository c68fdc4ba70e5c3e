// The change log's reader against a model of PostgreSQL's: transactions draw change numbers as they write
// and commit (or roll back) in any order; the log shows committed changes only, and its horizon is the
// oldest transaction still running. Whatever the interleaving, the reader applies every committed change
// exactly once, never one rolled back, never settles past a transaction that may still write below, and
// a change committed before a follow began is applied by that follow (while the window is small).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ChangeCursor } from '../../src/search/change-cursor.js';
import type { ChangeRead, LogPosition, SearchChange } from '../../src/search/feed.js';

const before = (a: LogPosition, b: LogPosition) => a.tx < b.tx || (a.tx === b.tx && a.seq < b.seq);
const key = (c: LogPosition) => `${c.tx}:${c.seq}`;

type Step =
  | { op: 'begin' }
  | { op: 'write'; pick: number }
  | { op: 'commit'; pick: number }
  | { op: 'abort'; pick: number }
  | { op: 'follow' };

class ModelLog {
  private nextTx = 100;
  private nextSeq = 1;
  readonly running = new Map<number, SearchChange[]>();
  readonly committed: SearchChange[] = [];
  readonly aborted = new Set<string>();
  /** Committed changes at the moment each was committed, in commit order. */
  reads = 0;

  begin(): void {
    this.running.set(this.nextTx++, []);
  }
  private pick(n: number): number | undefined {
    const txs = [...this.running.keys()];
    return txs.length === 0 ? undefined : txs[n % txs.length];
  }
  write(n: number): void {
    const tx = this.pick(n);
    if (tx !== undefined) this.running.get(tx)!.push({ tx, seq: this.nextSeq++, kind: 'unit', itemSeq: 1 });
  }
  end(n: number, commit: boolean): void {
    const tx = this.pick(n);
    if (tx === undefined) return;
    const changes = this.running.get(tx)!;
    this.running.delete(tx);
    if (commit) this.committed.push(...changes);
    else for (const c of changes) this.aborted.add(key(c));
  }
  get horizon(): number {
    return this.running.size === 0 ? this.nextTx : Math.min(...this.running.keys());
  }
  async searchChanges(after: LogPosition, limit: number, through?: LogPosition): Promise<ChangeRead> {
    this.reads++;
    const changes = this.committed
      .filter((c) => before(after, c) && (!through || !before(through, c)))
      .sort((a, b) => (before(a, b) ? -1 : 1))
      .slice(0, limit);
    return { changes, horizon: this.horizon, purged: { tx: 0, seq: 0 } };
  }
}

const steps = fc.array(
  fc.oneof(
    { arbitrary: fc.constant<Step>({ op: 'begin' }), weight: 2 },
    { arbitrary: fc.nat(7).map<Step>((pick) => ({ op: 'write', pick })), weight: 4 },
    { arbitrary: fc.nat(7).map<Step>((pick) => ({ op: 'commit', pick })), weight: 2 },
    { arbitrary: fc.nat(7).map<Step>((pick) => ({ op: 'abort', pick })), weight: 1 },
    { arbitrary: fc.constant<Step>({ op: 'follow' }), weight: 2 },
  ),
  { minLength: 20, maxLength: 150 },
);

async function run(script: Step[], sizes: { batch: number; window: number }, readYourWrites: boolean): Promise<void> {
  const log = new ModelLog();
  const cursor = new ChangeCursor({ tx: 0, seq: 0 }, sizes);
  const applied = new Map<string, number>();
  const apply = async (changes: SearchChange[]) => {
    for (const c of changes) applied.set(key(c), (applied.get(key(c)) ?? 0) + 1);
  };
  const follow = async () => {
    const committedBefore = [...log.committed];
    assert.equal(await cursor.follow(log, apply), 'followed');
    for (const [k, n] of applied) {
      assert.equal(n, 1, `change ${k} applied once`);
      assert.ok(!log.aborted.has(k), `rolled-back change ${k} never applied`);
    }
    // Nothing a running transaction may still write lies at or before the settled position.
    assert.ok(!before({ tx: log.horizon, seq: 0 }, cursor.settled), 'settled below the horizon');
    if (readYourWrites)
      for (const c of committedBefore) assert.ok(applied.has(key(c)), `change ${key(c)} committed before is applied`);
  };
  for (const step of script) {
    if (step.op === 'begin') log.begin();
    else if (step.op === 'write') log.write(step.pick);
    else if (step.op === 'commit') log.end(step.pick, true);
    else if (step.op === 'abort') log.end(step.pick, false);
    else await follow();
  }
  for (const tx of [...log.running.keys()]) log.end(tx, true);
  await follow();
  assert.deepEqual(new Set(applied.keys()), new Set(log.committed.map(key)), 'every committed change applied');
  assert.equal(cursor.applied, 0, 'everything settled once no transaction runs');
}

test('the change log reader applies every committed change once, in any commit order', async () => {
  await fc.assert(
    fc.asyncProperty(steps, (script) => run(script, { batch: 3, window: 1_000 }, true)),
    { numRuns: 400 },
  );
});

test('with a window too large to read again, late commits wait for the horizon and are still applied once', async () => {
  await fc.assert(
    fc.asyncProperty(steps, (script) => run(script, { batch: 2, window: 1 }, false)),
    { numRuns: 400 },
  );
});

test('on SQLite, where every visible change is settled, a follow with nothing new is one read', async () => {
  const log = new ModelLog();
  const cursor = new ChangeCursor({ tx: 0, seq: 0 });
  log.begin();
  log.write(0);
  log.end(0, true);
  const sqlite = {
    searchChanges: async (after: LogPosition, limit: number, through?: LogPosition) => ({
      ...(await log.searchChanges(after, limit, through)),
      horizon: Number.MAX_SAFE_INTEGER,
    }),
  };
  await cursor.follow(sqlite, async () => {});
  const reads = log.reads;
  await cursor.follow(sqlite, async () => {});
  assert.equal(log.reads, reads + 1);
  assert.deepEqual(cursor.settled, log.committed[0] && { tx: log.committed[0].tx, seq: log.committed[0].seq });
});

test('a reader behind the purge mark is told to rebuild and applies nothing', async () => {
  const cursor = new ChangeCursor({ tx: 0, seq: 3 });
  let applied = 0;
  const feed = {
    searchChanges: async (): Promise<ChangeRead> => ({
      changes: [{ tx: 0, seq: 9, kind: 'unit', itemSeq: 1 }],
      horizon: Number.MAX_SAFE_INTEGER,
      purged: { tx: 0, seq: 5 },
    }),
  };
  assert.equal(await cursor.follow(feed, async (c) => void (applied += c.length)), 'fell-behind');
  assert.equal(applied, 0);
});
