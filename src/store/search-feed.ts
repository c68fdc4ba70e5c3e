// What the search index reads from a store (the index defines it: src/search/feed.ts), with the summaries
// by sequence that a search's page is made of. Both backends implement it as part of Store.
import type { SkillSummary, UnitSummary } from '../domain/summaries.js';
import type { IndexFeed } from '../search/index.js';

export type { ChangeRead, LogPosition, SearchItem, SearchKind } from '../search/index.js';

export interface SearchFeed extends IndexFeed {
  skillSummariesBySeq(seqs: readonly number[]): Promise<SkillSummary[]>;
  unitSummariesBySeq(seqs: readonly number[]): Promise<UnitSummary[]>;
}
