// One kind's search index in the registry (registry-search.ts): a SearchEngine (which holds only text)
// and, beside it, the attribute table of what its items are filtered and ordered by, the filter predicate
// over that table, and the order of exact-score ties (quality, newest, id). Also the default vector index.
import { createHash } from 'node:crypto';
import type { SearchItem, SearchKind } from './feed.js';
import type { SearchDocument } from './document.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { SearchEngine } from './engine.js';
import type { TermLimits } from './lexical.js';
import { AttributeTable } from './attribute-table.js';
import type { Attributes } from './attribute-row.js';
import type { VectorIndex } from './vectors.js';
import { ExactVectorIndex } from './vectors.js';
import { UsearchVectorIndex } from './vectors-usearch.js';
import type { Condition } from '../domain/filters.js';
import { tagKeys } from '../domain/tags.js';
import type { JobFilter } from './scoring-pool.js';

export interface IndexMemory {
  items: number;
  postings: number;
  vectors: number;
  lexicalBytes: number;
  vectorBytes: number;
  /** All bytes over items, and the lexical bytes over postings. */
  bytesPerItem: number;
  bytesPerPosting: number;
}

/**
 * Which items a search admits: a list's condition (src/domain/filters.ts), applied as data over the
 * attribute table's columns (filter.ts), here or by a scoring worker.
 */
export type SearchFilter = Condition;

export class KindIndex {
  readonly engine: SearchEngine;
  readonly attributes = new AttributeTable();
  /** While a snapshot is written: the items changed since it began (their saved state may be mixed). */
  touched: Set<number> | null = null;

  constructor(
    readonly kind: SearchKind,
    provider: EmbeddingProvider,
    bounds: { limits: TermLimits; memoryFull: () => boolean },
  ) {
    // Copies of one skill collapse into the best one; knowledge units are each their own.
    const overrides = kind === 'unit' ? { collapseDuplicates: 'off' as const } : {};
    // The vector index is given later (registry-search.ts), once the vectors' length is known.
    this.engine = new SearchEngine(overrides, { providerId: provider.id, itemTerms: 'needed' });
    this.engine.lexical.limits = bounds.limits;
    this.engine.lexical.memoryFull = bounds.memoryFull;
  }

  /** Indexes an item, or only refreshes its attributes when its text did not change (then: false). */
  put(item: SearchItem): boolean {
    this.touched?.add(item.seq);
    const doc: SearchDocument = {
      key: item.seq,
      name: item.name,
      description: item.description,
      tags: item.tags,
      domain: item.domain,
      body: item.body,
      owner: item.agentId,
    };
    const textKey = createHash('sha1')
      .update(
        `${doc.name}\u0000${doc.description}\u0000${doc.tags.join('\u0001')}\u0000${doc.domain ?? ''}\u0000${doc.body}`,
      )
      .digest()
      .readUIntBE(0, 6);
    const changed = this.attributes.textKey(item.seq) !== textKey;
    if (changed) this.engine.upsert(doc);
    const tags = item.tags && item.tags.length > 0 ? tagKeys(item.tags) : undefined;
    this.attributes.set(item.seq, {
      quality: item.qualityScore,
      createdAt: item.createdAt,
      id: item.id,
      textKey,
      domain: item.domain,
      held: item.held,
      listed: item.listed,
      visibility: item.visibility,
      agentId: item.agentId,
      tags,
      conformant: item.conformant,
      name: item.kind === 'skill' ? item.name.split(' ')[0] : undefined,
      type: item.type,
    });
    return changed;
  }

  /** Puts back an item's saved attributes (a snapshot's). */
  restoreAttributes(seq: number, a: Attributes): void {
    this.attributes.set(seq, a);
  }

  drop(seq: number): void {
    this.touched?.add(seq);
    this.engine.remove(seq);
    this.attributes.delete(seq);
  }

  /** The engine's filter for `filter`: items whose attributes it admits. */
  admit(filter: SearchFilter): (key: number) => boolean {
    return this.attributes.admit(filter);
  }

  /** What a scoring worker needs to apply `filter` itself (null: it cannot, the filter must run here). */
  jobFilter(filter: SearchFilter): JobFilter | null {
    const columns = this.attributes.filterColumns();
    return columns && { keys: this.engine.lexical.keys, columns, resolved: this.attributes.resolve(filter) };
  }

  /** What the index holds and what it costs (approximate bytes: typed arrays at capacity, objects estimated). */
  async memory(): Promise<IndexMemory> {
    const { lexical, vectors } = await this.engine.memoryBytesInSlices();
    const items = this.attributes.size;
    const postings = this.engine.lexical.postingsCount;
    // The attribute table, and the engine's name keys and kept terms.
    const itemBytes = this.attributes.byteLength + this.engine.itemBytes;
    return {
      items,
      postings,
      vectors: this.engine.vectors?.size ?? 0,
      lexicalBytes: lexical + itemBytes,
      vectorBytes: vectors,
      bytesPerItem: items > 0 ? Math.round((lexical + itemBytes + vectors) / items) : 0,
      bytesPerPosting: postings > 0 ? Math.round((lexical + itemBytes) / postings) : 0,
    };
  }

  /** Orders items of equal score: higher quality, then newest, then id (descending). */
  readonly tieBreak = this.attributes.tieBreak;
}

/**
 * HNSW through usearch when its native module loads, its graph quantized to 8 bits (similarities stay
 * exact: they are computed from the Float32 copy), else an exact scan.
 */
export function defaultVectorIndex(dimensions: number): VectorIndex {
  try {
    return new UsearchVectorIndex(dimensions, { quantization: 'i8', expansionSearch: 256 });
  } catch {
    return new ExactVectorIndex(dimensions);
  }
}
