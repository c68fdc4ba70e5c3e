// Hit scoring for the search engine (engine.ts): what a ranked hit carries, a candidate's evidence, how
// similarities enter the score (`semanticNormalize`), and reciprocal rank fusion (`fusion: 'rrf'`). The
// linear combination itself, the semantic floor and the coverage check are in the engine's search.
import type { SearchConfig } from './hybrid.js';
import type { VectorIndex } from './vectors.js';

export interface RankedHit {
  key: number;
  score: number;
  /** Normalized lexical score with name evidence (0 when the item shares no word with the query). */
  lexical: number;
  /** Cosine similarity with the query (null without vectors). */
  semantic: number | null;
  exactName: boolean;
}

/** A candidate's evidence: its lexical score (0: found otherwise), its similarity once known, an exact name match. */
export interface Candidate {
  lex: number;
  sem: number | null;
  exact: boolean;
}

/**
 * How a similarity enters the score: 'raw' cosine minus semanticShift; 'minmax' and 'z' over the
 * candidates' similarities, which are looked up (with the query's vector `qv`) and kept in their `sem`.
 */
export function semanticScale(
  cands: Map<number, Candidate>,
  qv: Float32Array | null,
  vectors: VectorIndex | null,
  cfg: SearchConfig,
): (s: number) => number {
  // Statistics of the candidates' similarities, for 'minmax' and 'z' normalization.
  let semLo = Infinity;
  let semHi = -Infinity;
  let semMean = 0;
  let semSd = 1;
  if (qv && cfg.semanticNormalize !== 'raw') {
    const sims: number[] = [];
    for (const [key, c] of cands) {
      const s = c.sem ?? vectors!.similarity(key, qv);
      if (s === undefined) continue;
      c.sem = s;
      sims.push(s);
    }
    if (sims.length > 0) {
      for (const s of sims) {
        semLo = Math.min(semLo, s);
        semHi = Math.max(semHi, s);
        semMean += s / sims.length;
      }
      let v = 0;
      for (const s of sims) v += (s - semMean) ** 2 / sims.length;
      semSd = Math.sqrt(v) || 1;
    }
  }
  return (s: number): number =>
    cfg.semanticNormalize === 'minmax'
      ? semHi > semLo
        ? (s - semLo) / (semHi - semLo)
        : 0
      : cfg.semanticNormalize === 'z'
        ? (s - semMean) / semSd
        : Math.max(0, s - cfg.semanticShift);
}

/**
 * Reciprocal rank fusion: each hit's score becomes 1/(rrfK + rank) in the lexical list (by its score with
 * name evidence) plus semWeight/(rrfK + rank) in the semantic list (by similarity); an item absent from a
 * list gets nothing from it. Exact name matches stay first.
 */
export function fuseRanks(hits: RankedHit[], rrfK: number, semWeight: number): void {
  const lexRank = new Map(
    [...hits]
      .filter((h) => h.lexical > 0)
      .sort((a, b) => b.lexical - a.lexical || a.key - b.key)
      .map((h, i) => [h.key, i + 1]),
  );
  const semRank = new Map(
    [...hits]
      .filter((h) => h.semantic !== null)
      .sort((a, b) => b.semantic! - a.semantic! || a.key - b.key)
      .map((h, i) => [h.key, i + 1]),
  );
  for (const h of hits) {
    const l = lexRank.get(h.key);
    const r = semRank.get(h.key);
    h.score = (h.exactName ? 1000 : 0) + (l ? 1 / (rrfK + l) : 0) + (r ? semWeight / (rrfK + r) : 0);
  }
}
