// Reading a LexicalIndex's vocabulary and documents: document frequency and BM25 idf, a query's weighted
// postings lists, its top-k by the strategy chosen (top-k.ts: exhaustive; maxscore.ts: block-max MaxScore), the
// count of the documents it matches, whether a document holds a term, each term's live documents.
import { IMPACT_ONE } from './bm25f.js';
import type { DocumentTable } from './document-table.js';
import type { Hit, QueryTerm, SearchOptions } from './lexical-types.js';
import { countLive, type PostingsList } from './postings.js';
import type { TermStore } from './term-store.js';
import { preferExhaustive, type QueryList, type ScoreAccumulator, type StrategyLimits } from './top-k.js';
import { maxScoreTopK } from './maxscore.js';

/** Whether the live document `key` contains `term` (binary search in the term's postings). */
export function contains(terms: TermStore, docs: DocumentTable, term: string, key: number): boolean {
  const ord = docs.ordOf.get(key);
  const id = terms.id(term);
  if (ord === undefined || id === undefined) return false;
  return terms.includes(id, ord);
}

/** For every term, the live documents in which it occurs in any of `fields` (see LexicalIndex.forEachTerm). */
export function forEachTerm(
  terms: TermStore,
  docs: DocumentTable,
  fields: readonly number[],
  fn: (term: string, ordinals: number[]) => void,
): void {
  for (const [t, id] of terms.entries()) {
    const ords = terms.liveOrdinals(id, fields, docs.alive);
    if (ords.length > 0) fn(t, ords);
  }
}

/** Documents containing the term (dead ones included until compaction). */
export function docFreq(terms: TermStore, term: string): number {
  const id = terms.id(term);
  return id === undefined ? 0 : terms.length(id);
}

/** BM25 idf with the +1 inside the log (never negative). */
export function idf(terms: TermStore, docs: DocumentTable, term: string): number {
  const df = docFreq(terms, term);
  const n = Math.max(docs.aliveCount, df);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** A query's weighted postings lists and the strategy that scores them (see LexicalIndex.plan). */
export interface ScoringPlan {
  qs: QueryList[];
  /** true: the dense accumulator (top-k.ts); false: block-max MaxScore (maxscore.ts). */
  exhaustive: boolean;
  /** Postings in the lists. */
  postings: number;
}

/** The lists a query scores, and how (null: no term of the query is in the index). */
export function scoringPlan(
  terms: TermStore,
  docs: DocumentTable,
  limits: StrategyLimits,
  query: readonly QueryTerm[],
  options: SearchOptions,
): ScoringPlan | null {
  if (docs.aliveCount === 0) return null;
  const qs: QueryList[] = [];
  let postings = 0;
  for (const q of query) {
    const id = terms.id(q.term);
    // Impacts are stored in units of 1/IMPACT_ONE (bm25f.ts): the weight takes the scale.
    const w = ((q.weight ?? 1) * idf(terms, docs, q.term)) / IMPACT_ONE;
    if (id !== undefined && terms.length(id) > 0 && w > 0) {
      const p = terms.list(id);
      qs.push({ p, w });
      postings += p.length;
    }
  }
  if (qs.length === 0) return null;
  // Match counts are kept in bytes.
  if (qs.length > 255) qs.length = 255;
  const exhaustive = options.exhaustive === undefined ? preferExhaustive(qs, limits) : options.exhaustive;
  return { qs, exhaustive, postings };
}

/** The k best live documents for the query (see LexicalIndex.search). */
export function topHits(
  terms: TermStore,
  docs: DocumentTable,
  scorer: ScoreAccumulator,
  limits: StrategyLimits,
  query: readonly QueryTerm[],
  k: number,
  options: SearchOptions,
): Hit[] {
  const plan = k > 0 ? scoringPlan(terms, docs, limits, query, options) : null;
  if (plan === null) return [];
  const top = plan.exhaustive
    ? scorer.topK(plan.qs, k, docs.nextOrd, docs.alive, docs.keys, options.filter)
    : maxScoreTopK(plan.qs, k, docs.alive, docs.keys, options.filter);
  return top.sorted().map(({ doc, score, matched }) => ({ key: docs.keys[doc]!, score, matched }));
}

/** The postings lists of a query's terms (those in the index), for counting its matches. */
export function matchLists(terms: TermStore, query: readonly string[]): PostingsList[] {
  const lists: PostingsList[] = [];
  for (const t of query) {
    const id = terms.id(t);
    if (id !== undefined) lists.push(terms.list(id));
  }
  return lists;
}

/** Live documents matching at least one term (OR), counted up to `cap`. */
export function countMatches(
  terms: TermStore,
  docs: DocumentTable,
  query: readonly string[],
  cap: number,
  filter?: (key: number) => boolean,
): number {
  return countLive(matchLists(terms, query), docs.nextOrd, docs.alive, docs.keys, cap, filter);
}
