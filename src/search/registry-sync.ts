// Building the registry's search index from the store and following the store's change log (when each
// happens: registry-search.ts; how the log is read without passing a transaction in flight:
// change-cursor.ts): items read in keyset batches and indexed in slices, a batch of logged changes applied
// to each kind's index, and the log's purge.
import type { IndexFeed, SearchChange, SearchKind } from './feed.js';
import type { KindIndex } from './registry-index.js';
import type { ChangeListener } from './registry-options.js';
import { inSlices } from './slices.js';

/**
 * Items read per query while building or applying changes: a batch is read on the event loop (SQLite)
 * before it is sliced, and 1,000 skills with their bodies took 15 ms to read on a warm cache.
 */
const READ_BATCH = 200;
const KEPT_CHANGES = 100_000;

/** Items indexed so far of those a build goes through. */
export interface BuildProgress {
  done: number;
  total: number;
}

/**
 * Forgets all but the last KEPT_CHANGES changes of the log (every instance follows it; one that falls
 * further behind rebuilds its index from the store).
 */
export function purgeChangeLog(feed: IndexFeed): Promise<number> {
  return feed.purgeSearchChanges(KEPT_CHANGES);
}

/**
 * Builds the index from the store: items in keyset batches, indexed in slices of a few milliseconds
 * (slices.ts) so that requests are served all along; `started` is given the progress, updated as it goes.
 */
export async function indexFromStore(
  feed: IndexFeed,
  indexes: Record<SearchKind, KindIndex>,
  hooks: { started(progress: BuildProgress): void; closed(): boolean; indexed(kind: SearchKind): void },
): Promise<void> {
  const progress = {
    done: 0,
    total: (await feed.countSearchItems('skill')) + (await feed.countSearchItems('unit')),
  };
  hooks.started(progress);
  for (const kind of ['skill', 'unit'] as const) {
    const index = indexes[kind];
    let after = 0;
    for (;;) {
      if (hooks.closed()) return;
      const items = await feed.searchItems(kind, after, READ_BATCH);
      await inSlices(items, (item) => index.put(item));
      progress.done += items.length;
      hooks.indexed(kind);
      if (items.length < READ_BATCH) break;
      after = items[items.length - 1]!.seq;
    }
    await inSlices(index.engine.lexical.postingsLists(), (p) => p.trim());
  }
}

/**
 * Applies a batch of logged changes to each kind's index: the listeners hear the items touched, items no
 * longer in the store are dropped, the others indexed again; `applied` hears how many changed text.
 */
export async function applyChangeBatch(
  feed: IndexFeed,
  indexes: () => Record<SearchKind, KindIndex>,
  changes: SearchChange[],
  listeners: readonly ChangeListener[],
  applied: (kind: SearchKind, changed: number) => void,
): Promise<void> {
  for (const kind of ['skill', 'unit'] as const) {
    const seqs = [...new Set(changes.filter((c) => c.kind === kind).map((c) => c.itemSeq))];
    if (seqs.length === 0) continue;
    for (const listener of listeners) listener(kind, seqs);
    const index = indexes()[kind];
    let changed = 0;
    // Read a part at a time and indexed in slices: a batch of changes (a catch-up after a start) must not
    // hold the event loop.
    for (let at = 0; at < seqs.length; at += READ_BATCH) {
      const part = seqs.slice(at, at + READ_BATCH);
      const found = await feed.searchItemsBySeq(kind, part);
      const present = new Set(found.map((item) => item.seq));
      for (const seq of part) if (!present.has(seq)) index.drop(seq);
      await inSlices(found, (item) => {
        if (index.put(item)) changed++;
      });
    }
    applied(kind, changed);
  }
}
