// The search engine: analyzer + lexical index + optional vector index + the hybrid ranking of hybrid.ts.
// Pure computation over in-memory structures: no I/O, no clock, no randomness. Embedding is the caller's
// business (a provider, normally behind a worker): `upsert` takes an item's vector when it has one, and
// `search` takes the query's vector when it has one; without vectors the ranking is lexical only.
// Helpers: scoring.ts (semantic normalization, rank fusion), duplicates.ts (near-duplicates last).
import { Analyzer } from './analyzer.js';
import { documentFields, type SearchDocument } from './document.js';
import { collapseDuplicates, type CopyKey } from './duplicates.js';
import { configFor, nameEvidence, phraseMatches, termsNeeded, type SearchConfig } from './hybrid.js';
import { LexicalIndex, type QueryTerm } from './lexical.js';
import type { Hit, SearchOptions } from './lexical-types.js';
import { fuseRanks, semanticScale, type Candidate, type RankedHit } from './scoring.js';
import { ExactVectorIndex, type VectorIndex } from './vectors.js';
import { ItemNames, NO_TERMS, type ItemInfo } from './item-names.js';

export interface EngineSearchOptions {
  /** Results wanted (after offset). */
  limit: number;
  offset?: number;
  /** Only items whose key passes (visibility, domain, tags, quality…) are returned. */
  filter?: (key: number) => boolean;
  /** The query's embedding, from the same provider as the items' vectors. */
  queryVector?: Float32Array;
  /** Score every posting (reference ranking for tests). */
  exhaustive?: boolean;
  /** Orders hits of equal score (default: by key); the registry breaks ties by quality, newest, id. */
  tieBreak?: (a: number, b: number) => number;
}

export interface EngineSearchResult {
  hits: RankedHit[];
  /** Candidates ranked (a lower bound of all matches; see countMatches for a total). */
  candidates: number;
  /** The query terms after analysis (empty: nothing to search for). */
  terms: string[];
  /** Hits that share no word with the query (found by meaning): with countMatches, the whole total. */
  semanticOnly?: number;
}

/** A lexical top-k the ranking asks for: the query's terms, how many, with which filter and strategy. */
export interface LexicalRequest {
  terms: readonly QueryTerm[];
  k: number;
  options: SearchOptions;
}

/** Who answers the ranking's lexical top-k: the lexical index in this thread, or a scoring pool. */
export type LexicalTopK = (request: LexicalRequest) => Hit[] | Promise<Hit[]>;

/** Terms of a query beyond this many are ignored (a pasted document is not a query). */
export const MAX_QUERY_TERMS = 32;

export class SearchEngine {
  /** Every parameter, fixed when the engine is made (a lab compares configurations with an engine each). */
  readonly config: SearchConfig;
  readonly analyzer: Analyzer;
  readonly lexical: LexicalIndex;
  vectors: VectorIndex | null;
  /** Each indexed item's name key and kept terms, by its lexical ordinal; its ordinals by name key. */
  private readonly names = new ItemNames();
  /** Per-item terms kept beside the index: all (for feedback experiments), or what the config reads. */
  private readonly keeps: { name: boolean; description: boolean };

  /**
   * `itemTerms` 'needed' keeps only the per-item terms the config reads (the registry: at 1M items the
   * rest is hundreds of MB); 'all' (the default, for the lab's query rewriting) keeps them all.
   */
  constructor(
    config: Partial<SearchConfig> = {},
    options: { providerId?: string; dimensions?: number; vectorIndex?: VectorIndex; itemTerms?: 'all' | 'needed' } = {},
  ) {
    this.config = configFor(options.providerId ?? 'none', config);
    this.keeps = options.itemTerms === 'needed' ? termsNeeded(this.config) : { name: true, description: true };
    this.analyzer = new Analyzer(this.config.analyzer);
    this.lexical = new LexicalIndex({ fields: this.config.fields, k1: this.config.k1 });
    this.vectors = options.vectorIndex ?? (options.dimensions ? new ExactVectorIndex(options.dimensions) : null);
  }

  get size(): number {
    return this.lexical.size;
  }

  /**
   * Adds or replaces an item (and its vector, when given; a replaced item without one loses its old one).
   * Answers how many of its distinct terms the lexical index's limits left out (0: all indexed).
   */
  upsert(doc: SearchDocument, vector?: Float32Array | null): number {
    this.remove(doc.key);
    const fields = documentFields(this.analyzer, this.config, doc);
    const refused = this.lexical.add(doc.key, fields, doc.owner);
    const nameKey = this.analyzer.nameKey(doc.name);
    const info: ItemInfo = {
      nameKey,
      nameTerms: this.keeps.name ? fields[0]! : NO_TERMS,
      descSet: this.keeps.description ? [...new Set(fields[1]!)].sort() : NO_TERMS,
    };
    this.restoreItem(doc.key, info);
    if (vector && vector.length > 0 && this.vectors) this.vectors.upsert(doc.key, vector);
    return refused;
  }

  /** Each item's name key and kept terms, in the order they were indexed (a snapshot saves them). */
  *items(): IterableIterator<[number, ItemInfo]> {
    for (let ord = 0; ord < this.lexical.ordinalLimit; ord++) {
      const info = this.names.info(ord);
      if (info) yield [this.lexical.keyOf(ord), info];
    }
  }

  /**
   * Puts back an item's info (a snapshot's, after its lexical index), or records a new one's (after it is
   * added to the lexical index). An item the lexical index does not hold is left out.
   */
  restoreItem(key: number, info: ItemInfo): void {
    const ord = this.lexical.ordinal(key);
    if (ord === undefined) return;
    if (this.names.has(ord)) this.names.forget(ord);
    this.names.set(ord, info);
  }

  /** Sets or replaces only the vector of an indexed item (embeddings arrive after the text). */
  setVector(key: number, vector: Float32Array): void {
    if (this.item(key) && this.vectors) this.vectors.upsert(key, vector);
  }

  remove(key: number): boolean {
    const ord = this.lexical.ordinal(key);
    if (ord === undefined || !this.names.has(ord)) {
      // Restored from a snapshot taken while the item was deleted: only its postings are left.
      this.lexical.remove(key);
      return false;
    }
    this.names.forget(ord);
    this.lexical.remove(key);
    this.vectors?.remove(key);
    return true;
  }

  /** Query terms with their weights (query-term weighting). */
  queryTerms(q: string): QueryTerm[] {
    let terms = this.analyzer.queryTerms(q).slice(0, MAX_QUERY_TERMS);
    const limit = this.config.queryTermLimit;
    if (limit > 0 && terms.length > limit) {
      const keep = new Set(
        [...terms].sort((a, b) => this.lexical.idf(b) - this.lexical.idf(a) || (a < b ? -1 : 1)).slice(0, limit),
      );
      terms = terms.filter((t) => keep.has(t));
    }
    const p = this.config.idfPower;
    return terms.map((term) => ({
      term,
      weight: p === 1 ? 1 : Math.pow(Math.max(1e-6, this.lexical.idf(term)), p - 1),
    }));
  }

  /** Semantic weight that applies to a query with this many terms (after analysis). */
  semanticWeightFor(termCount: number): number {
    const cfg = this.config;
    return cfg.semanticWeightLong !== null && termCount >= cfg.longQueryTerms
      ? cfg.semanticWeightLong
      : cfg.semanticWeight;
  }

  /**
   * Whether a query's embedding would be used at all: not without vectors, and not for a query whose
   * semantic weight is 0 (with the default config, long sentence queries): the caller can then skip
   * embedding it, which is most of a query's cost with the built-in model.
   */
  needsQueryVector(q: string): boolean {
    if (!this.vectors || this.vectors.size === 0) return false;
    return this.semanticWeightFor(this.analyzer.queryTerms(q).length) > 0;
  }

  /** The ranking of `q`, its lexical top-k scored in this thread. */
  search(q: string, options: EngineSearchOptions): EngineSearchResult {
    const steps = this.ranking(q, options);
    let step = steps.next();
    while (!step.done) step = steps.next(this.lexical.search(step.value.terms, step.value.k, step.value.options));
    return step.value;
  }

  /** The same ranking, each lexical top-k asked of `topK` (a scoring pool's, which answers later). */
  async searchWith(q: string, options: EngineSearchOptions, topK: LexicalTopK): Promise<EngineSearchResult> {
    const steps = this.ranking(q, options);
    let step = steps.next();
    while (!step.done) step = steps.next(await topK(step.value));
    return step.value;
  }

  /** The ranking of a query, as steps: each lexical top-k it needs is yielded, and its hits given back. */
  private *ranking(q: string, options: EngineSearchOptions): Generator<LexicalRequest, EngineSearchResult, Hit[]> {
    const cfg = this.config;
    const offset = options.offset ?? 0;
    const want = options.limit + offset;
    let qterms = this.queryTerms(q);
    const terms = qterms.map((t) => t.term);
    const filter = options.filter;
    if (want <= 0) return { hits: [], candidates: 0, terms };

    if (this.rewriteQuery) qterms = this.rewriteQuery(qterms, filter);

    // The head of the ranking: a fixed number of lexical candidates (whatever the page, so that every
    // page cuts the same list), scored with every kind of evidence. Deeper pages continue with the tail.
    const k = cfg.lexicalCandidates;
    const lexOptions: SearchOptions = { filter, exhaustive: options.exhaustive };
    const lex = yield { terms: qterms, k, options: lexOptions };
    const cands = new Map<number, Candidate>();
    const nq = terms.length;
    for (const h of lex) {
      const coord = cfg.coordination > 0 && nq > 0 ? Math.pow(Math.min(1, h.matched / nq), cfg.coordination) : 1;
      cands.set(h.key, { lex: h.score * coord, sem: null, exact: false });
    }

    for (const ord of this.names.named(this.analyzer.nameKey(q))) {
      const key = this.lexical.keyOf(ord);
      if (filter && !filter(key)) continue;
      const c = cands.get(key);
      if (c) c.exact = true;
      else cands.set(key, { lex: 0, sem: null, exact: true });
    }

    const qv =
      options.queryVector &&
      options.queryVector.length > 0 &&
      this.vectors &&
      this.vectors.size > 0 &&
      this.semanticWeightFor(terms.length) > 0
        ? options.queryVector
        : null;
    if (qv) {
      // A fixed number of nearest items, whatever the page: the ranking of a query is the same on every page.
      for (const h of this.vectors!.search(qv, cfg.semanticCandidates, cfg.semanticFloor, filter)) {
        if (!cands.has(h.key)) cands.set(h.key, { lex: 0, sem: h.score, exact: false });
      }
    }

    // Normalization of the lexical score.
    let norm = 0;
    if (cfg.normalize === 'query') {
      for (const t of qterms) norm += (t.weight ?? 1) * this.lexical.idf(t.term);
    } else for (const c of cands.values()) norm = Math.max(norm, c.lex);
    if (norm <= 0) norm = 1;

    const semValue = semanticScale(cands, qv, this.vectors, cfg);
    const qset = new Set(terms);
    const semWeight = this.semanticWeightFor(terms.length);
    // Idf mass of the query, for the lexical floor (an unknown term weighs as the rarest possible).
    const maxIdf = Math.log(1 + (this.lexical.size + 0.5) / 0.5);
    const idfOf = (t: string) => (this.lexical.docFreq(t) > 0 ? this.lexical.idf(t) : maxIdf);
    const queryMass = cfg.minCoverage > 0 ? terms.reduce((a, t) => a + idfOf(t), 0) : 0;
    const hits: RankedHit[] = [];
    const namesRead = cfg.nameCoverage > 0 || cfg.nameComplete > 0 || cfg.namePhrase > 0;
    for (const [key, c] of cands) {
      let lexical = c.lex / norm;
      if (c.lex > 0 && namesRead) {
        const nameTerms = this.names.nameTerms(this.lexical.ordinal(key)!);
        if (cfg.nameCoverage > 0 || cfg.nameComplete > 0) {
          const ev = nameEvidence(nameTerms, qset);
          lexical += cfg.nameCoverage * ev.coverage + (ev.complete ? cfg.nameComplete : 0);
        }
        if (cfg.namePhrase > 0) lexical += cfg.namePhrase * phraseMatches(nameTerms, terms);
      }
      let semantic: number | null = null;
      if (qv) semantic = c.sem ?? this.vectors!.similarity(key, qv) ?? null;
      if (c.lex === 0 && !c.exact && (semantic === null || semantic < cfg.semanticFloor)) continue;
      if (cfg.minCoverage > 0 && c.lex > 0 && !c.exact && !(semantic !== null && semantic >= cfg.semanticFloor)) {
        let mass = 0;
        for (const t of terms) if (this.lexical.contains(t, key)) mass += idfOf(t);
        if (mass < cfg.minCoverage * queryMass) continue;
      }
      const semPart = semantic === null ? 0 : semWeight * semValue(semantic);
      const score = (c.exact ? 1000 : 0) + lexical + semPart;
      hits.push({ key, score, lexical, semantic, exactName: c.exact });
    }
    if (cfg.fusion === 'rrf' && qv) fuseRanks(hits, cfg.rrfK, semWeight);
    const tieBreak = options.tieBreak ?? ((a: number, b: number) => a - b);
    hits.sort((a, b) => b.score - a.score || tieBreak(a.key, b.key));

    // Copies of an item already ranked go after every distinct item, in their own order.
    const ranked = cfg.collapseDuplicates === 'off' ? hits : collapseDuplicates(hits, (key) => this.copyKey(key), cfg);
    const semanticOnly = ranked.reduce((n, h) => n + (h.lexical === 0 && !h.exactName ? 1 : 0), 0);
    if (want > ranked.length && lex.length >= k) {
      // The tail: lexical matches beyond the head, by lexical score alone (normalized like the head's).
      const inHead = new Set(ranked.map((h) => h.key));
      for (const h of yield { terms: qterms, k: want + inHead.size, options: lexOptions }) {
        if (inHead.has(h.key)) continue;
        ranked.push({ key: h.key, score: h.score / norm, lexical: h.score / norm, semantic: null, exactName: false });
      }
    }
    return { hits: ranked.slice(offset, offset + options.limit), candidates: ranked.length, terms, semanticOnly };
  }

  /**
   * Items sharing at least one term with the query (OR), counted up to `cap`: the list's `total` (items
   * matching only by meaning are not counted; a capped total says so).
   */
  countMatches(q: string, cap = Infinity, filter?: (key: number) => boolean): number {
    return this.lexical.countMatches(this.matchTerms(q), cap, filter);
  }

  /** The terms whose matches countMatches counts. */
  matchTerms(q: string): string[] {
    return this.queryTerms(q).map((t) => t.term);
  }

  /** An experiment's query rewriting (expansion; the search lab's), applied before matching. None by default. */
  rewriteQuery: ((terms: QueryTerm[], filter?: (key: number) => boolean) => QueryTerm[]) | null = null;

  /** An item's name key and kept terms. */
  item(key: number): ItemInfo | undefined {
    const ord = this.lexical.ordinal(key);
    return ord === undefined ? undefined : this.names.info(ord);
  }

  /** What near-duplicate detection compares of an item in the index. */
  private copyKey(key: number): CopyKey {
    const ord = this.lexical.ordinal(key)!;
    return { name: this.names.nameId(ord), descSet: () => this.names.descSet(ord) };
  }

  /** Bytes of the items' name keys and kept terms (typed arrays at capacity, the rest estimated). */
  get itemBytes(): number {
    return this.names.byteLength;
  }

  /** Approximate memory of the indexes (lexical postings and vectors). */
  memoryBytes(): { lexical: number; vectors: number } {
    return { lexical: this.lexical.memoryBytes(), vectors: this.vectors?.memoryBytes() ?? 0 };
  }

  /** The same, walking the vocabulary in slices so that requests are served meanwhile. */
  async memoryBytesInSlices(): Promise<{ lexical: number; vectors: number }> {
    return { lexical: await this.lexical.memoryBytesInSlices(), vectors: this.vectors?.memoryBytes() ?? 0 };
  }
}
