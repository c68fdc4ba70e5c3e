// One kind's search index in the registry (registry-search.ts): a SearchEngine (which holds only text)
// and, beside it, the attribute table of what its items are filtered and ordered by, the filter predicate
// over that table, and the order of exact-score ties (quality, newest, id). Also the default vector index.
import { createHash } from 'node:crypto';
import type { SearchItem, SearchKind } from './feed.js';
import type { SearchDocument } from './document.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { SearchEngine } from './engine.js';
import type { TermLimits } from './lexical.js';
import type { VectorIndex } from './vectors.js';
import { ExactVectorIndex } from './vectors.js';
import { UsearchVectorIndex } from './vectors-usearch.js';

/**
 * What a search item is filtered and ordered by, kept beside the engine (which holds only text). One per
 * item, so kept small: repeated texts (domains, publishers, tags, types) are shared through `intern`, and
 * the text's fingerprint is a number.
 */
export interface Attributes {
  quality: number;
  createdAt: string;
  id: string;
  /** 48 bits of the sha1 of the indexed text: an unchanged text is not indexed again. */
  textKey: number;
  domain: string | null;
  /** Skills. */
  listed?: boolean;
  visibility?: string;
  agentId?: string;
  /** Lower-cased; absent when there are none. */
  tags?: readonly string[];
  conformant?: boolean;
  name?: string;
  /** Units. */
  type?: string;
}

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

export interface SearchFilter {
  (item: {
    listed?: boolean;
    visibility?: string;
    agentId?: string;
    domain: string | null;
    tags?: readonly string[];
    quality: number;
    conformant?: boolean;
    type?: string;
    name?: string;
  }): boolean;
}

/** Shares one copy of each repeated text among all items (a domain, a publisher, a tag), until it is unused. */
class Interner {
  private readonly texts = new Map<string, { text: string; uses: number }>();
  get(text: string): string;
  get(text: string | null | undefined): string | undefined;
  get(text: string | null | undefined): string | undefined {
    if (text === null || text === undefined) return undefined;
    const e = this.texts.get(text);
    if (e) {
      e.uses++;
      return e.text;
    }
    this.texts.set(text, { text, uses: 1 });
    return text;
  }
  release(text: string | null | undefined): void {
    if (text === null || text === undefined) return;
    const e = this.texts.get(text);
    if (e && --e.uses === 0) this.texts.delete(text);
  }
}

export class KindIndex {
  readonly engine: SearchEngine;
  readonly attributes = new Map<number, Attributes>();
  private readonly interner = new Interner();
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
    const before = this.attributes.get(item.seq);
    const changed = before?.textKey !== textKey;
    if (changed) this.engine.upsert(doc);
    if (before) this.release(before);
    const it = this.interner;
    const tags =
      item.tags && item.tags.length > 0
        ? [...new Set(item.tags.map((t) => t.toLowerCase()))].map((t) => it.get(t))
        : undefined;
    this.attributes.set(item.seq, {
      quality: item.qualityScore,
      createdAt: item.createdAt,
      id: item.id,
      textKey,
      domain: it.get(item.domain) ?? null,
      listed: item.listed,
      visibility: it.get(item.visibility),
      agentId: it.get(item.agentId),
      tags,
      conformant: item.conformant,
      name: item.kind === 'skill' ? item.name.split(' ')[0] : undefined,
      type: it.get(item.type),
    });
    return changed;
  }

  /** Puts back an item's saved attributes (a snapshot's), sharing repeated texts again. */
  restoreAttributes(seq: number, a: Attributes): void {
    const it = this.interner;
    this.attributes.set(seq, {
      ...a,
      domain: it.get(a.domain) ?? null,
      visibility: it.get(a.visibility),
      agentId: it.get(a.agentId),
      tags: a.tags?.map((t) => it.get(t)),
      type: it.get(a.type),
    });
  }

  private release(a: Attributes): void {
    const it = this.interner;
    for (const text of [a.domain, a.visibility, a.agentId, a.type, ...(a.tags ?? [])]) it.release(text);
  }

  drop(seq: number): void {
    this.touched?.add(seq);
    this.engine.remove(seq);
    const a = this.attributes.get(seq);
    if (a) this.release(a);
    this.attributes.delete(seq);
  }

  /** The engine's filter for `filter`: items whose attributes it admits. */
  admit(filter: SearchFilter): (key: number) => boolean {
    return (key: number) => {
      const a = this.attributes.get(key);
      return a !== undefined && filter(a);
    };
  }

  /** What the index holds and what it costs (approximate bytes: typed arrays at capacity, objects estimated). */
  async memory(): Promise<IndexMemory> {
    const { lexical, vectors } = await this.engine.memoryBytesInSlices();
    const items = this.attributes.size;
    const postings = this.engine.lexical.postingsCount;
    // Attributes and the engine's per-item record: objects, estimated.
    const itemBytes = items * 200;
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
  readonly tieBreak = (x: number, y: number): number => {
    const a = this.attributes.get(x)!;
    const b = this.attributes.get(y)!;
    return (
      b.quality - a.quality ||
      (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
    );
  };
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
