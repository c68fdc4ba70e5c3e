// The lexical index's configuration, query, answer and saved-head types (lexical.ts re-exports them).
import type { SavedDocuments } from './document-table.js';
import type { SavedBounds } from './vocabulary-bounds.js';

export interface FieldSpec {
  name: string;
  /** BM25F weight of a term occurrence in this field. */
  weight: number;
  /** Length normalization in [0, 1]: 0 ignores the field's length, 1 divides fully by length / average. */
  b: number;
}

export interface LexicalConfig {
  fields: FieldSpec[];
  /** Saturation of the weighted term frequency. */
  k1: number;
  /** Postings a term keeps in the shared pool, at most (term-store.ts; 0: every list has arrays of its own). */
  shortLists?: number;
}

export interface QueryTerm {
  term: string;
  /** Multiplies the term's BM25F score (query-term weighting); 1 by default. */
  weight?: number;
}

export interface Hit {
  key: number;
  score: number;
  /** How many of the query's terms the document contains. */
  matched: number;
}

export interface SearchOptions {
  /** Only documents whose key passes are returned (and counted). */
  filter?: (key: number) => boolean;
  /**
   * true: score every posting (term at a time, the reference); false: block-max MaxScore; unset: exhaustive
   * when the query's lists hold at most `exhaustiveBelow` postings (dense accumulation beats pruning on
   * short lists) or are many (`prunedMaxTerms`), MaxScore otherwise. Both give the same top-k.
   */
  exhaustive?: boolean;
}

/** A LexicalIndex's state apart from its postings lists (snapshot.ts saves and restores it). */
export interface LexicalHead extends SavedDocuments, SavedBounds {
  averages: number[];
  deadPostings: number;
}
