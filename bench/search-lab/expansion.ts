// Query expansion, measured in the lab and not shipped (RESULTS.md): co-occurrence associates (NPMI,
// cooccurrence.ts) and RM3-like pseudo-relevance feedback (the best terms of the top documents' names and
// descriptions). Each returns the query's terms followed by the added ones, with their weights; the lab
// sets them as the engine's rewriteQuery.
import type { LexicalIndex, QueryTerm } from '../../src/search/lexical.js';
import type { CooccurrenceModel } from './cooccurrence.js';

/** The lab's expansion settings, beside the engine's SearchConfig. */
export interface ExpansionConfig {
  /** Co-occurrence: each query term adds up to `perTerm` associates at weight `weight` × NPMI. */
  expansion: { enabled: boolean; weight: number; perTerm: number };
  /** Pseudo-relevance feedback (RM3-like): expand queries of at least `minTerms` terms. */
  prf: { enabled: boolean; minTerms: number; docs: number; terms: number; weight: number };
}

export const NO_EXPANSION: ExpansionConfig = {
  expansion: { enabled: false, weight: 0.3, perTerm: 3 },
  prf: { enabled: false, minTerms: 6, docs: 10, terms: 10, weight: 0.3 },
};

/** Adds each query term's associates (not already in the query) at weight × NPMI. */
export function addAssociates(
  model: CooccurrenceModel,
  qterms: QueryTerm[],
  cfg: ExpansionConfig['expansion'],
): QueryTerm[] {
  const { weight, perTerm } = cfg;
  const have = new Set(qterms.map((t) => t.term));
  const added = new Map<string, number>();
  for (const q of qterms) {
    for (const a of model.associates(q.term).slice(0, perTerm)) {
      if (have.has(a.term)) continue;
      const w = weight * a.npmi * (q.weight ?? 1);
      if (w > (added.get(a.term) ?? 0)) added.set(a.term, w);
    }
  }
  return [...qterms, ...[...added].map(([term, w]) => ({ term, weight: w }))];
}

/**
 * RM3-like expansion: the best terms of the top documents' names and descriptions, added with a weight.
 * `termsOf`: an item's name terms, then its description terms.
 */
export function expandByFeedback(
  lexical: LexicalIndex,
  qterms: QueryTerm[],
  cfg: ExpansionConfig['prf'],
  termsOf: (key: number) => string[],
  filter?: (key: number) => boolean,
): QueryTerm[] {
  const top = lexical.search(qterms, cfg.docs, { filter });
  if (top.length === 0) return qterms;
  const have = new Set(qterms.map((t) => t.term));
  const weights = new Map<string, number>();
  const maxScore = top[0]!.score;
  for (const h of top) {
    const terms = [...new Set(termsOf(h.key))];
    for (const t of terms) {
      if (have.has(t)) continue;
      weights.set(t, (weights.get(t) ?? 0) + (h.score / maxScore) * lexical.idf(t));
    }
  }
  const extra = [...weights.entries()]
    .filter(([t]) => lexical.docFreq(t) >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, cfg.terms);
  if (extra.length === 0) return qterms;
  const maxW = extra[0]![1];
  return [...qterms, ...extra.map(([term, w]) => ({ term, weight: (cfg.weight * w) / maxW }))];
}
