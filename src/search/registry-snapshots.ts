// The registry search index's snapshot, seen from the index (registry-search.ts; the keeping itself is
// snapshot-keeper.ts): the shape a saved index must have to be used, and whether a saved index fits the
// store's change log.
import { ANALYZER_REVISION } from './analyzer.js';
import type { IndexFeed, LogPosition, SearchKind } from './feed.js';
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

const before = (a: LogPosition, b: LogPosition) => a.tx < b.tx || (a.tx === b.tx && a.seq < b.seq);

/**
 * Loads the saved index into `fresh` and answers the position it was taken at, when it was taken of this
 * database and its change log still reaches back to it (the catch-up then applies what followed); else null.
 */
export async function loadMatchingSnapshot(
  snapshots: SnapshotKeeper,
  feed: IndexFeed,
  fresh: Record<SearchKind, KindIndex>,
  progress: (done: number, total: number) => void,
  log: () => Log | undefined,
): Promise<LogPosition | null> {
  const mark = await snapshots.load(fresh, progress);
  if (mark === null) return null;
  const state = await feed.changeLogState();
  const why =
    mark.database !== state.database
      ? 'it was taken of another database'
      : before(mark.position, state.purged)
        ? 'the change log no longer reaches back to it'
        : before(state.purged, mark.last) && !(await feed.holdsChange(mark.last))
          ? 'the database is older than it (restored from a backup)'
          : null;
  if (why) {
    log()?.warn(
      { mark, database: state.database, purged: state.purged, last: state.last },
      `the search index snapshot does not match the database (${why}); building the index from the database`,
    );
    snapshots.stale();
    return null;
  }
  return mark.position;
}
