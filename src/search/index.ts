// The search module's only entry: everything the registry uses of it. The rest of src/search/ is its
// inside (the README says what each file does).
export { RegistrySearch } from './registry-search.js';
export type { IndexMemory, SearchFilter } from './registry-index.js';
export type { UnitFilter } from './unit-filter.js';
export type { VocabularyStatus } from './lexical.js';
export { type ProviderSpec } from './embeddings/factory.js';
export type { IndexFeed, SearchChange, SearchItem, SearchKind } from './feed.js';
