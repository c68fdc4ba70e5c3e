// What the search index reads from the registry's data: the items, the change log, and their vectors.
// Defined here, by the index; the store implements it (src/store/search-feed.ts), and the service
// layer hands the store to the index (src/service/search-index.ts).
import type { UnitType, Visibility } from '../domain/model.js';

export type SearchKind = 'skill' | 'unit';

/** A searchable item as the search index takes it: its text, and what its filters and order read. */
export interface SearchItem {
  kind: SearchKind;
  seq: number;
  id: string;
  /** A skill's name and display name; a unit's title. */
  name: string;
  description: string;
  tags: string[];
  domain: string | null;
  /** A skill's markdown body; a unit's examples, one per line. */
  body: string;
  qualityScore: number;
  createdAt: string;
  /** The publisher or contributor. */
  agentId: string;
  /** Skills: who sees it, and whether it is listed (a version that is not yanked). */
  visibility?: Visibility;
  listed?: boolean;
  conformant?: boolean;
  /** Units. */
  type?: UnitType;
}

export interface SearchChange {
  seq: number;
  kind: SearchKind;
  itemSeq: number;
}

/**
 * What the search index is derived from: every searchable item in keyset batches, the log of changes
 * that triggers keep for every write, and the items' vectors per embedding model. The store implements
 * it; the index knows nothing else of the store.
 */
export interface IndexFeed {
  searchItems(kind: SearchKind, afterSeq: number, limit: number): Promise<SearchItem[]>;
  searchItemsBySeq(kind: SearchKind, seqs: readonly number[]): Promise<SearchItem[]>;
  /** How many items of a kind `searchItems` goes through (the progress of a build). */
  countSearchItems(kind: SearchKind): Promise<number>;
  /** Changes after `afterSeq`, oldest first. */
  searchChanges(afterSeq: number, limit: number): Promise<SearchChange[]>;
  /** The first and last change kept (0 when none): an index behind the first must rebuild. */
  searchChangeBounds(): Promise<{ first: number; last: number }>;
  /** Forgets changes before `beforeSeq`; answers how many. */
  purgeSearchChanges(beforeSeq: number): Promise<number>;
  itemVectors(
    kind: SearchKind,
    model: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ seq: number; vector: Float32Array }[]>;
  /** Items that have no vector of `model` yet (listed skills, every unit), oldest first. */
  itemsWithoutVectors(kind: SearchKind, model: string, limit: number): Promise<SearchItem[]>;
  countItemsWithoutVectors(kind: SearchKind, model: string): Promise<number>;
  /** Keeps vectors of items that still exist (a vector for a deleted item is dropped). */
  saveVectors(kind: SearchKind, model: string, rows: readonly { seq: number; vector: Float32Array }[]): Promise<void>;
}
