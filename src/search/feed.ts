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
  /** Held by a moderator or the scanner (a skill: the whole skill, or every version). */
  held: boolean;
  /** Skills: who sees it, and whether it is listed (a version that is not yanked). */
  visibility?: Visibility;
  listed?: boolean;
  conformant?: boolean;
  /** Units. */
  type?: UnitType;
}

/**
 * A place in the change log. Changes are read in (tx, seq) order: `seq` is drawn when a change is written,
 * `tx` names the transaction that wrote it (PostgreSQL's transaction id; 0 on SQLite, which commits one
 * write transaction at a time in the order it numbers changes, and for changes logged before `tx` was kept).
 */
export interface LogPosition {
  readonly tx: number;
  readonly seq: number;
}

export interface SearchChange extends LogPosition {
  kind: SearchKind;
  itemSeq: number;
}

/** A read of the change log. */
export interface ChangeRead {
  /** Changes after the position asked, oldest first (in (tx, seq) order), as far as the limit. */
  changes: SearchChange[];
  /**
   * Every transaction below this id has ended: the log holds all the changes it will ever hold below
   * `{ tx: horizon, seq: 0 }`. Changes at or above it are committed (they are visible) but a transaction
   * still running may yet add changes among them. Number.MAX_SAFE_INTEGER on SQLite.
   */
  horizon: number;
  /** Changes at or before this position have been purged: a reader behind it must rebuild. */
  purged: LogPosition;
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
  /** Changes after `after` (and at or before `through`, when given), oldest first. */
  searchChanges(after: LogPosition, limit: number, through?: LogPosition): Promise<ChangeRead>;
  /**
   * Where a reader that is about to read the items must start following the log: every change a
   * transaction not yet ended may write lies after it, so the items read afterwards plus the changes after
   * it miss nothing.
   */
  changeLogStart(): Promise<LogPosition>;
  /** The database's identity (drawn once, kept by backups), how far the log is purged, and its last change. */
  changeLogState(): Promise<{ database: string; purged: LogPosition; last: LogPosition }>;
  /** Whether the log holds a change at exactly this position. */
  holdsChange(position: LogPosition): Promise<boolean>;
  /** Forgets all but the newest `keep` settled changes (at least one is kept); answers how many went. */
  purgeSearchChanges(keep: number): Promise<number>;
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
