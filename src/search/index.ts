// The search module's only entry: everything the registry uses of it. The rest of src/search/ is its
// inside (the README says what each file does).
export { RegistrySearch } from './registry-search.js';
export { removeSnapshot } from './snapshot-keeper.js';
export type { IndexMemory } from './registry-index.js';
export type { VocabularyStatus } from './lexical.js';
export { type ProviderSpec } from './embeddings/factory.js';
export type { ChangeRead, IndexFeed, LogPosition, SearchItem, SearchKind } from './feed.js';
