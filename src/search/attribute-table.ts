// The attribute table of one kind's index (registry-index.ts): what its items are filtered and ordered by,
// in columns of typed arrays by a dense slot (a removed item's slot is reused), so that a million items
// cost a few dozen bytes each instead of an object, its strings and a Map entry of their own.
//
// Columns: quality (Float64), creation time (epoch milliseconds, Float64; a text that is not a plain
// ISO-8601 instant of years 0-9999 is kept as text beside), the text fingerprint (Float64), the id (up
// to 32 ASCII bytes in place, else as text beside: attribute-ids.ts), domain / visibility / publisher /
// type / the name's first word as ids into an interned string table, the tags as a run of ids in one
// shared pool, the two booleans as bits. Comparing ids byte by byte and instants as numbers orders them exactly as comparing
// their texts does, so the tie order is the one of the plain objects.
// What a filter reads (the key → slot array, quality, the texts' ids, the flags, the tags) is in shared
// memory, so that a scoring worker applies the filter itself (filter.ts, scoring-pool.ts).
import type { Attributes } from './attribute-row.js';
import { KeyTable } from './key-table.js';
import { Strings } from './strings.js';
import { IdColumn } from './attribute-ids.js';
import { column } from './typed-arrays.js';
import type { Condition } from '../domain/filters.js';
import {
  FLAGS,
  NO_TEXT,
  REF,
  REFS,
  resolveFilter,
  slotFilter,
  type FilterColumns,
  type ResolvedFilter,
} from './filter.js';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Epoch milliseconds of a text whose order as text is the order of the instants, else NaN. */
function instant(text: string): number {
  if (!ISO_INSTANT.test(text)) return NaN;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString() === text ? ms : NaN;
}

export class AttributeTable {
  private readonly slotOf = new KeyTable(true);
  private readonly strings = new Strings();
  private cap = 0;
  private used = 0;
  private freeSlots: number[] = [];
  private quality = column(Float64Array, 0, true);
  private created = new Float64Array(0);
  private textKeys = new Float64Array(0);
  private readonly ids = new IdColumn();
  private refs = column(Int32Array, 0, true); // REFS per slot: domain, visibility, agent, type, name (-1: none)
  private flags = column(Uint8Array, 0, true);
  private tagOff = column(Uint32Array, 0, true);
  private tagLen = column(Uint16Array, 0, true);
  private tagPool = column(Int32Array, 64, true);
  private tagEnd = 0;
  private tagGarbage = 0;
  /** Texts that do not fit their column, by slot. */
  private readonly createdText = new Map<number, string>();

  get size(): number {
    return this.slotOf.size;
  }

  has(seq: number): boolean {
    return this.slotOf.has(seq);
  }

  keys(): IterableIterator<number> {
    return this.slotOf.keys();
  }

  /** The text fingerprint of an item (undefined when it is not in the table). */
  textKey(seq: number): number | undefined {
    const s = this.slotOf.get(seq);
    return s === undefined ? undefined : this.textKeys[s];
  }

  /** Sets (or replaces) an item's row. */
  set(seq: number, a: Attributes): void {
    let s = this.slotOf.get(seq);
    if (s === undefined) {
      s = this.freeSlots.pop() ?? this.newSlot();
      this.slotOf.set(seq, s);
    } else this.clearSlot(s);
    const st = this.strings;
    this.quality[s] = a.quality;
    this.textKeys[s] = a.textKey;
    const ms = instant(a.createdAt);
    this.created[s] = ms;
    if (Number.isNaN(ms)) this.createdText.set(s, a.createdAt);
    this.ids.set(s, a.id);
    const r = s * REFS;
    this.refs[r + REF.domain] = st.id(a.domain);
    this.refs[r + REF.visibility] = st.id(a.visibility);
    this.refs[r + REF.publisher] = st.id(a.agentId);
    this.refs[r + REF.type] = st.id(a.type);
    this.refs[r + REF.name] = st.id(a.name);
    const flag = (value: boolean | undefined, bits: { has: number; yes: number }) =>
      value === undefined ? 0 : bits.has | (value ? bits.yes : 0);
    this.flags[s] = flag(a.listed, FLAGS.listed) | flag(a.conformant, FLAGS.conformant) | flag(a.held, FLAGS.held);
    const tags = a.tags ?? [];
    if (this.tagEnd + tags.length > this.tagPool.length) this.growTags(tags.length);
    this.tagOff[s] = this.tagEnd;
    this.tagLen[s] = tags.length;
    for (const t of tags) this.tagPool[this.tagEnd++] = st.id(t);
  }

  delete(seq: number): boolean {
    const s = this.slotOf.get(seq);
    if (s === undefined) return false;
    this.clearSlot(s);
    this.slotOf.delete(seq);
    this.freeSlots.push(s);
    return true;
  }

  /** An item's row as an object (undefined when it is not in the table). */
  get(seq: number): Attributes | undefined {
    const s = this.slotOf.get(seq);
    if (s === undefined) return undefined;
    const a: Attributes = {
      quality: this.quality[s]!,
      createdAt: this.createdAt(s),
      id: this.ids.get(s),
      textKey: this.textKeys[s]!,
      domain: this.ref(s, REF.domain) ?? null,
    };
    const listed = this.flag(s, FLAGS.listed);
    const conformant = this.flag(s, FLAGS.conformant);
    const held = this.flag(s, FLAGS.held);
    const visibility = this.ref(s, REF.visibility);
    const agentId = this.ref(s, REF.publisher);
    const tags = this.tagsOf(s);
    const name = this.ref(s, REF.name);
    const type = this.ref(s, REF.type);
    if (held !== undefined) a.held = held;
    if (listed !== undefined) a.listed = listed;
    if (visibility !== undefined) a.visibility = visibility;
    if (agentId !== undefined) a.agentId = agentId;
    if (tags !== undefined) a.tags = tags;
    if (conformant !== undefined) a.conformant = conformant;
    if (name !== undefined) a.name = name;
    if (type !== undefined) a.type = type;
    return a;
  }

  /** Every item's row, in no particular order. */
  *entries(): IterableIterator<[number, Attributes]> {
    for (const seq of this.slotOf.keys()) yield [seq, this.get(seq)!];
  }

  [Symbol.iterator](): IterableIterator<[number, Attributes]> {
    return this.entries();
  }

  /** A condition with its texts as ids of this table (valid until the table changes). */
  resolve(condition: Condition): ResolvedFilter {
    return resolveFilter(condition, (text) => this.strings.find(text) ?? NO_TEXT);
  }

  /** The columns a filter reads, as they are now (shared memory), or null when some key is not in the slot array. */
  filterColumns(): FilterColumns | null {
    const slotOf = this.slotOf.directArray;
    return slotOf === null ? null : { slotOf, ...this.columns() };
  }

  /** A predicate over keys: the items in the table that the condition admits. */
  admit(condition: Condition): (seq: number) => boolean {
    const admits = slotFilter(this.columns(), this.resolve(condition));
    return (seq: number) => {
      const s = this.slotOf.get(seq);
      return s !== undefined && admits(s);
    };
  }

  private columns(): Omit<FilterColumns, 'slotOf'> {
    return {
      refs: this.refs,
      quality: this.quality,
      flags: this.flags,
      tagOff: this.tagOff,
      tagLen: this.tagLen,
      tagPool: this.tagPool,
    };
  }

  /** Orders items of equal score: higher quality, then newest, then id (descending). */
  readonly tieBreak = (x: number, y: number): number => {
    const a = this.slotOf.get(x)!;
    const b = this.slotOf.get(y)!;
    const q = this.quality[b]! - this.quality[a]!;
    if (q) return q;
    const ca = this.created[a]!;
    const cb = this.created[b]!;
    if (!Number.isNaN(ca) && !Number.isNaN(cb)) {
      if (ca !== cb) return ca < cb ? 1 : -1;
    } else {
      const ta = this.createdAt(a);
      const tb = this.createdAt(b);
      if (ta !== tb) return ta < tb ? 1 : -1;
    }
    return this.ids.compare(b, a);
  };

  /** Bytes held by the columns (typed arrays at capacity) and an estimate for the maps and texts. */
  get byteLength(): number {
    const arrays = [this.quality, this.created, this.textKeys, this.refs];
    let bytes = this.flags.byteLength + this.tagOff.byteLength + this.tagLen.byteLength + this.tagPool.byteLength;
    for (const a of arrays) bytes += a.byteLength;
    bytes += this.ids.byteLength + this.slotOf.byteLength + this.strings.byteLength;
    return bytes + this.createdText.size * 80;
  }

  // ---- the columns' parts ------------------------------------------------------------------------

  private ref(slot: number, column: number): string | undefined {
    return this.strings.text(this.refs[slot * REFS + column]!);
  }

  private flag(slot: number, bits: { has: number; yes: number }): boolean | undefined {
    const f = this.flags[slot]!;
    return f & bits.has ? (f & bits.yes) !== 0 : undefined;
  }

  private tagsOf(slot: number): string[] | undefined {
    const n = this.tagLen[slot]!;
    if (n === 0) return undefined;
    const off = this.tagOff[slot]!;
    const tags: string[] = [];
    for (let i = 0; i < n; i++) tags.push(this.strings.text(this.tagPool[off + i]!)!);
    return tags;
  }

  private createdAt(s: number): string {
    const ms = this.created[s]!;
    return Number.isNaN(ms) ? this.createdText.get(s)! : new Date(ms).toISOString();
  }

  private clearSlot(s: number): void {
    for (let c = 0; c < REFS; c++) this.strings.release(this.refs[s * REFS + c]!);
    const off = this.tagOff[s]!;
    for (let i = 0; i < this.tagLen[s]!; i++) this.strings.release(this.tagPool[off + i]!);
    this.tagGarbage += this.tagLen[s]!;
    this.tagLen[s] = 0;
    this.createdText.delete(s);
    this.ids.clear(s);
  }

  private newSlot(): number {
    if (this.used === this.cap) {
      const cap = Math.max(64, this.cap * 2);
      const grow = <T extends Float64Array | Uint8Array | Int32Array | Uint32Array | Uint16Array>(
        a: T,
        make: (n: number) => T,
        per = 1,
      ): T => {
        const b = make(cap * per);
        b.set(a);
        return b;
      };
      this.quality = grow(this.quality, (n) => column(Float64Array, n, true));
      this.created = grow(this.created, (n) => new Float64Array(n));
      this.textKeys = grow(this.textKeys, (n) => new Float64Array(n));
      this.ids.grow(cap);
      this.refs = grow(this.refs, (n) => column(Int32Array, n, true), REFS);
      this.flags = grow(this.flags, (n) => column(Uint8Array, n, true));
      this.tagOff = grow(this.tagOff, (n) => column(Uint32Array, n, true));
      this.tagLen = grow(this.tagLen, (n) => column(Uint16Array, n, true));
      this.cap = cap;
    }
    return this.used++;
  }

  /** Room for `n` more tags: drops the runs of replaced rows when they are half the pool, else doubles it. */
  private growTags(n: number): void {
    const live = this.tagEnd - this.tagGarbage;
    const cap = Math.max(64, (live + n) * 2);
    const pool = column(
      Int32Array,
      this.tagGarbage * 2 > this.tagEnd ? cap : Math.max(cap, this.tagPool.length * 2),
      true,
    );
    if (this.tagGarbage === 0) {
      // Nothing to reclaim (a build or a load only adds): one copy, not one per item.
      pool.set(this.tagPool.subarray(0, this.tagEnd));
      this.tagPool = pool;
      return;
    }
    let end = 0;
    for (const s of this.slotOf.values()) {
      const off = this.tagOff[s]!;
      const len = this.tagLen[s]!;
      pool.set(this.tagPool.subarray(off, off + len), end);
      this.tagOff[s] = end;
      end += len;
    }
    this.tagPool = pool;
    this.tagEnd = end;
    this.tagGarbage = 0;
  }
}
