// A semantic signal learned from the registry's own contents, no external model: terms that occur together
// in items' names and descriptions more often than chance (normalized pointwise mutual information). A
// query term then also looks for its strongest associates, at a reduced weight. Built from the lexical
// index (derived data: rebuild it after bulk loads, or periodically as items change; a stale model only
// weakens expansion, never hides an item).
import type { LexicalIndex } from '../../src/search/lexical.js';

export interface CooccurrenceOptions {
  /** Fields whose terms co-occur (indexes into the index's fields; default name and description). */
  fields: number[];
  /** A term must occur in at least this many items… */
  minDf: number;
  /** …and in at most this share of them (common words associate with everything). */
  maxDfShare: number;
  /** Pairs seen fewer times are ignored. */
  minPair: number;
  /** Associates kept per term. */
  perTerm: number;
  /** Minimum NPMI in [-1, 1] for an associate. */
  minNpmi: number;
}

export const DEFAULT_COOCCURRENCE: CooccurrenceOptions = {
  fields: [0, 1],
  minDf: 3,
  maxDfShare: 0.02,
  minPair: 3,
  perTerm: 5,
  minNpmi: 0.3,
};

export class CooccurrenceModel {
  private readonly related = new Map<string, Array<{ term: string; npmi: number }>>();

  get terms(): number {
    return this.related.size;
  }

  associates(term: string): ReadonlyArray<{ term: string; npmi: number }> {
    return this.related.get(term) ?? [];
  }

  static build(index: LexicalIndex, options: Partial<CooccurrenceOptions> = {}): CooccurrenceModel {
    const o = { ...DEFAULT_COOCCURRENCE, ...options };
    const n = index.size;
    const model = new CooccurrenceModel();
    if (n === 0) return model;
    const maxDf = Math.max(o.minDf, Math.floor(o.maxDfShare * n));
    const names: string[] = [];
    const df: number[] = [];
    const forward: number[][] = Array.from({ length: index.ordinalLimit }, () => []);
    index.forEachTerm(o.fields, (term, ords) => {
      if (ords.length < o.minDf || ords.length > maxDf) return;
      const id = names.length;
      names.push(term);
      df.push(ords.length);
      for (const d of ords) forward[d]!.push(id);
    });
    const pairs = new Map<number, number>();
    const V = names.length;
    for (const ids of forward) {
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          const a = ids[i]!;
          const b = ids[j]!;
          const key = a < b ? a * V + b : b * V + a;
          pairs.set(key, (pairs.get(key) ?? 0) + 1);
        }
      }
    }
    const lists: Array<Array<{ term: number; npmi: number }>> = Array.from({ length: V }, () => []);
    for (const [key, c] of pairs) {
      if (c < o.minPair) continue;
      const a = Math.floor(key / V);
      const b = key % V;
      const pab = c / n;
      const npmi = Math.log(pab / ((df[a]! / n) * (df[b]! / n))) / -Math.log(pab);
      if (npmi < o.minNpmi) continue;
      lists[a]!.push({ term: b, npmi });
      lists[b]!.push({ term: a, npmi });
    }
    for (let a = 0; a < V; a++) {
      const l = lists[a]!;
      if (l.length === 0) continue;
      l.sort((x, y) => y.npmi - x.npmi || x.term - y.term);
      model.related.set(
        names[a]!,
        l.slice(0, o.perTerm).map((x) => ({ term: names[x.term]!, npmi: x.npmi })),
      );
    }
    return model;
  }
}
