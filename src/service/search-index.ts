// The search index fed from the store: the store is the index's feed (items, change log, vectors), and
// the configuration says which embedding model, what bounds, and where the index is saved.
import type { Config } from '../config/index.js';
import { RegistrySearch } from '../search/index.js';
import type { Store } from '../store/store.js';

export function openSearchIndex(store: Store, config: Config): RegistrySearch {
  return new RegistrySearch(store, {
    embeddings: config.embeddings,
    vocabulary: config.searchVocabulary,
    ...(config.searchSnapshotDir ? { snapshotDir: config.searchSnapshotDir } : {}),
    startWaitMs: config.searchStartWaitMs,
    ...(config.searchWorkers === null ? {} : { scoringWorkers: config.searchWorkers }),
  });
}
