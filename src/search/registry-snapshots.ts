// The registry search index's snapshot, seen from the index (registry-search.ts; the keeping itself is
// snapshot-keeper.ts): the shape a saved index must have to be used, and whether a saved index fits the
// store's change log.
import { ANALYZER_REVISION } from './analyzer.js';
import type { IndexFeed, SearchKind } from './feed.js';
import type { TermLimits } from './lexical.js';
import type { KindIndex } from './registry-index.js';
import type { Log } from './registry-options.js';
import type { SnapshotKeeper } from './snapshot-keeper.js';

/** A saved index is usable only by an index of the same shape: analysis, fields and bounds. */
export function snapshotShape(indexes: Record<SearchKind, KindIndex>, limits: TermLimits): unknown[] {
  return (['skill', 'unit'] as const).map((kind) => {
    const c = indexes[kind].engine.config;
    return {
      analyzer: [ANALYZER_REVISION, c.analyzer],
      fields: c.fields,
      k1: c.k1,
      bodyWords: c.bodyWords,
      bodyProseOnly: c.bodyProseOnly,
      limits: Object.values(limits),
    };
  });
}

/**
 * Loads the saved index into `fresh` and answers the change it was taken at, when there is one that
 * matches this store (the catch-up then applies what followed it); else null.
 */
export async function loadMatchingSnapshot(
  snapshots: SnapshotKeeper,
  feed: IndexFeed,
  fresh: Record<SearchKind, KindIndex>,
  progress: (done: number, total: number) => void,
  log: () => Log | undefined,
): Promise<number | null> {
  const change = await snapshots.load(fresh, progress);
  if (change === null) return null;
  const { first, last } = await feed.searchChangeBounds();
  // Newer than the store (a restored backup), or older than the log kept: rebuild.
  if (change > last || (first > change + 1 && first > 0)) {
    log()?.warn(
      { change, first, last },
      'the search index snapshot does not match the change log; building the index from the database',
    );
    snapshots.stale();
    return null;
  }
  return change;
}
