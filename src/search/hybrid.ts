// How lexical and semantic evidence combine into one ranking. Every parameter is in SearchConfig, each
// with what it does and the value the lab (bench/search-lab.ts, results in bench/search-lab/RESULTS.md)
// chose on one half of the dev queries and confirmed on the other.
//
// The pipeline, per query:
//  1. Candidates: the `lexicalCandidates` best items by BM25F (OR of the query's terms), the items whose
//     name is exactly the query, and, with embeddings, the `semanticCandidates` nearest items whose cosine
//     similarity reaches `semanticFloor`.
//  2. Lexical score, normalized to [0, 1] by the query's own maximum (the sum of its terms' weights:
//     `normalize: 'query'`) or by the best candidate's score (`'max'`), plus name evidence: the share of
//     the item's name words that the query contains (`nameCoverage`), query word pairs found next to each
//     other in the name (`namePhrase`).
//  3. Semantic score: cosine similarity of item and query vectors, shifted by `semanticShift` (similarities
//     below it count as nothing) and weighted by `semanticWeight`, which depends on the provider: each
//     provider's worth on the evaluation decides its weight (SEMANTIC_WEIGHTS).
//  4. An item sharing no word with the query is kept only when its similarity reaches `semanticFloor`, so a
//     query about nothing in the registry finds nothing. An exact name match is ranked first.
//  5. Optionally, near-duplicates (same normalized name and description) collapse into their best item.

import type { AnalyzerOptions } from './analyzer.js';
import { BUILTIN_ID } from './embeddings/builtin.js';
import type { FieldSpec } from './lexical.js';

export interface SearchConfig {
  analyzer: Partial<AnalyzerOptions>;
  /** Searched fields in the order of SearchDocument: name, description, tags, body. */
  fields: FieldSpec[];
  k1: number;
  /** Body words indexed (the start of the body); 0 = all. */
  bodyWords: number;
  /** Drop fenced code blocks and HTML tags from the body before indexing (prose only). */
  bodyProseOnly: boolean;
  /**
   * A long query keeps only its this-many rarest terms (highest idf) for matching: common words of a
   * sentence add cost on long posting lists and little evidence. 0 = all (up to MAX_QUERY_TERMS).
   */
  queryTermLimit: number;
  /** Query-term weight = idf^(idfPower-1) on top of BM25's own idf (1 = plain BM25). */
  idfPower: number;
  lexicalCandidates: number;
  semanticCandidates: number;
  normalize: 'query' | 'max';
  /** Added (normalized units) per share of the item's name words that the query contains. */
  nameCoverage: number;
  /** Added when all of the item's name words are in the query (and the name has ≥ 1 word). */
  nameComplete: number;
  /**
   * Coordination: the lexical score is multiplied by (matched / query terms)^coordination, favouring items
   * that contain more of the query's words (0 = plain BM25F sum).
   */
  coordination: number;
  /** Added per adjacent query-term pair found adjacent in the name. */
  namePhrase: number;
  semanticWeight: number;
  /**
   * Semantic weight for long queries (at least `longQueryTerms` terms after analysis: sentences that
   * describe a need rather than name it); null = semanticWeight for every query.
   */
  semanticWeightLong: number | null;
  longQueryTerms: number;
  /** 'linear': lexical + weight × similarity; 'rrf': reciprocal rank fusion 1/(rrfK + rank) of both lists. */
  fusion: 'linear' | 'rrf';
  rrfK: number;
  /** Similarity that counts as zero semantic evidence (USE-lite: unrelated texts sit around 0.1-0.2). */
  semanticShift: number;
  /**
   * How similarities enter the score: 'raw' cosine (minus semanticShift); 'minmax' rescaled to [0, 1] over
   * the candidates; 'z' standardized over the candidates (mean 0, sd 1), so that a query whose items are
   * all rather similar gets no free boost.
   */
  semanticNormalize: 'raw' | 'minmax' | 'z';
  /**
   * Lexical floor: an item whose matched query terms carry less than this share of the query's idf mass
   * (terms unknown to the index count with the highest idf) is dropped, unless its similarity reaches
   * semanticFloor. 0 = any shared word is enough (plain OR).
   */
  minCoverage: number;
  /** An item sharing no word with the query needs at least this cosine similarity to be returned. */
  semanticFloor: number;
  /**
   * Near-duplicates in one answer: 'off' ranks them like any item; 'description' ranks all but the best
   * of items with the same normalized name whose description term sets overlap by at least
   * `duplicateJaccard` (copies of one skill) after every distinct item; 'name' does so per normalized name.
   */
  collapseDuplicates: 'off' | 'description' | 'name';
  duplicateJaccard: number;
}

/**
 * Defaults, each chosen on half A of the dev queries and checked on half B (bench/search-lab/RESULTS.md
 * gives the step and the figures for every value).
 */
export const DEFAULT_CONFIG: SearchConfig = {
  // Synonyms off: neutral on A, −0.02 keyword MRR on B (step 2). Stemming, stop words, joined compounds on.
  analyzer: { synonyms: false },
  // Name far above description, then tags, then body; a flat optimum around these values (step 3).
  fields: [
    { name: 'name', weight: 10, b: 0.5 },
    { name: 'description', weight: 5, b: 0.75 },
    { name: 'tags', weight: 3, b: 0.5 },
    { name: 'body', weight: 1, b: 0.75 },
  ],
  // k1 2 with query-term weight idf^-0.25 (idfPower 0.75): +0.025 keyword / +0.004 task on A (step 5).
  k1: 2,
  // The body's first 200 words: the largest single gain, +0.06 / +0.11 over the whole body (step 1).
  bodyWords: 200,
  bodyProseOnly: false,
  queryTermLimit: 0,
  idfPower: 0.75,
  lexicalCandidates: 200,
  semanticCandidates: 50,
  normalize: 'max',
  // Name boosts beyond the name field's weight all hurt (step 4); coordination too (step 6).
  nameCoverage: 0,
  nameComplete: 0,
  coordination: 0,
  namePhrase: 0,
  // Without a provider these do nothing; SEMANTIC_WEIGHTS sets them per provider (step 7).
  semanticWeight: 0,
  semanticWeightLong: 0,
  longQueryTerms: 6,
  fusion: 'linear',
  rrfK: 60,
  semanticShift: 0,
  semanticNormalize: 'raw',
  // USE-lite: off-topic queries (cooking, hiking, poetry…) reach at most 0.53 with some skill, a dev query
  // reaches its wanted skill at a median 0.60; semantic-only items never entered a top 10 at 0.5 either
  // (RESULTS.md, "Similarity floor").
  semanticFloor: 0.55,
  minCoverage: 0,
  // Copies of one skill (same name, description Jaccard ≥ 0.8) collapse: +0.004 to +0.009 (step 5).
  collapseDuplicates: 'description',
  duplicateJaccard: 0.8,
};

/**
 * What each embedding provider is worth, as the weight of its evidence, measured on the evaluation
 * (RESULTS.md step 7). A provider without an entry gets DEFAULT_CONFIG's semanticWeight (0: lexical only)
 * until it has been measured: run the lab with its vectors and add its entry here.
 *
 * USE-lite (built-in): worth +0.02 keyword MRR on half A with weight 1 on short queries; it lowers task
 * (sentence) queries at every weight, so long queries use none and are not embedded at all. Its floor is
 * 0.65: nonsense words reach 0.61 with some skill, off-topic questions 0.58.
 */
export const SEMANTIC_WEIGHTS: Record<string, Partial<SearchConfig>> = {
  [BUILTIN_ID]: { semanticWeight: 1, semanticWeightLong: 0, semanticFloor: 0.65 },
};

/** The config for a provider id: defaults, then the provider's measured weights. */
export function configFor(providerId: string, overrides: Partial<SearchConfig> = {}): SearchConfig {
  return { ...DEFAULT_CONFIG, ...(SEMANTIC_WEIGHTS[providerId] ?? {}), ...overrides };
}

/** Which per-item terms a config reads at query time (besides the index itself). */
export function termsNeeded(cfg: SearchConfig): { name: boolean; description: boolean } {
  return {
    name: cfg.nameCoverage > 0 || cfg.nameComplete > 0 || cfg.namePhrase > 0,
    description: cfg.collapseDuplicates === 'description',
  };
}

/** Share of name terms found in the query (unique terms), and whether all are. */
export function nameEvidence(
  nameTerms: readonly string[],
  queryTerms: ReadonlySet<string>,
): { coverage: number; complete: boolean } {
  const uniq = new Set(nameTerms);
  if (uniq.size === 0) return { coverage: 0, complete: false };
  let n = 0;
  for (const t of uniq) if (queryTerms.has(t)) n++;
  return { coverage: n / uniq.size, complete: n === uniq.size };
}

/** Adjacent query-term pairs that also stand adjacent in the name. */
export function phraseMatches(nameTerms: readonly string[], queryTerms: readonly string[]): number {
  if (nameTerms.length < 2 || queryTerms.length < 2) return 0;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < nameTerms.length; i++) pairs.add(`${nameTerms[i]}\u0000${nameTerms[i + 1]}`);
  let n = 0;
  for (let i = 0; i + 1 < queryTerms.length; i++) if (pairs.has(`${queryTerms[i]}\u0000${queryTerms[i + 1]}`)) n++;
  return n;
}
