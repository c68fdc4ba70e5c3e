// What the engine keeps of each item beside the lexical index (engine.ts), by the item's lexical ordinal:
// its name key (for the exact-name rule and near-duplicates) and, when the config reads them, its name's
// terms and sorted description terms (ItemInfo). Kept compactly for a million items: name keys interned
// in one byte pool (text-table.ts) and referred to by id from a typed array by ordinal; the items of a
// name found from the name's id (its first ordinal in a typed array, the rare others in a Map); the kept
// terms interned (strings.ts) and held as one small array of ids per item that keeps any.
import { Strings } from './strings.js';
import { TextTable } from './text-table.js';
import { resized } from './typed-arrays.js';

export interface ItemInfo {
  nameKey: string;
  /** The name's terms, for name evidence and feedback (kept when the config uses them: see itemTerms). */
  nameTerms: string[];
  /** Sorted unique description terms, for near-duplicate detection (likewise). */
  descSet: string[];
}

/** An item's kept terms when it keeps none (shared). */
export const NO_TERMS: string[] = [];
/** In `nameOf`: no item at the ordinal; an item with an empty name key; else the key's id + NAMED. */
const NONE = 0;
const UNNAMED = 1;
const NAMED = 2;

export class ItemNames {
  private readonly names = new TextTable();
  private readonly terms = new Strings();
  private nameOf = new Int32Array(0);
  /** By name id: the first ordinal of that name (the others, ascending, in `more`). */
  private firstOrd = new Int32Array(0);
  private readonly more = new Map<number, number[]>();
  /** By ordinal, for items that keep terms: the name's term count, then the name's and the description's term ids. */
  private readonly kept = new Map<number, Int32Array>();

  /** Whether an item is recorded at the ordinal. */
  has(ord: number): boolean {
    return ord < this.nameOf.length && this.nameOf[ord] !== NONE;
  }

  /** Records the item at a new ordinal (or one forgotten). */
  set(ord: number, info: ItemInfo): void {
    if (ord >= this.nameOf.length) this.nameOf = resized(this.nameOf, Math.max(64, ord + 1 + (ord >> 1)));
    if (info.nameKey === '') this.nameOf[ord] = UNNAMED;
    else {
      const id = this.names.add(info.nameKey);
      this.nameOf[ord] = id + NAMED;
      if (id >= this.firstOrd.length) this.firstOrd = resized(this.firstOrd, Math.max(64, id + 1 + (id >> 1)));
      if (this.names.uses(id) === 1) this.firstOrd[id] = ord;
      else {
        const rest = this.more.get(id);
        if (rest) rest.push(ord);
        else this.more.set(id, [ord]);
      }
    }
    if (info.nameTerms.length > 0 || info.descSet.length > 0) {
      const ids = new Int32Array(1 + info.nameTerms.length + info.descSet.length);
      ids[0] = info.nameTerms.length;
      let i = 1;
      for (const t of info.nameTerms) ids[i++] = this.terms.id(t);
      for (const t of info.descSet) ids[i++] = this.terms.id(t);
      this.kept.set(ord, ids);
    }
  }

  /** Drops the item at the ordinal. */
  forget(ord: number): void {
    const v = this.nameOf[ord]!;
    this.nameOf[ord] = NONE;
    const ids = this.kept.get(ord);
    if (ids) {
      for (let i = 1; i < ids.length; i++) this.terms.release(ids[i]!);
      this.kept.delete(ord);
    }
    if (v < NAMED) return;
    const id = v - NAMED;
    const rest = this.more.get(id);
    if (this.firstOrd[id] === ord) {
      if (rest) {
        this.firstOrd[id] = rest.shift()!;
        if (rest.length === 0) this.more.delete(id);
      }
    } else if (rest) {
      rest.splice(rest.indexOf(ord), 1);
      if (rest.length === 0) this.more.delete(id);
    }
    this.names.release(id);
  }

  /** The item's name key and kept terms (undefined when none is recorded at the ordinal). */
  info(ord: number): ItemInfo | undefined {
    if (!this.has(ord)) return undefined;
    const id = this.nameId(ord);
    return { nameKey: id < 0 ? '' : this.names.text(id), nameTerms: this.nameTerms(ord), descSet: this.descSet(ord) };
  }

  /** The item's name id, without decoding the name: equal ids, equal name keys (-1: no name). */
  nameId(ord: number): number {
    const v = ord < this.nameOf.length ? this.nameOf[ord]! : NONE;
    return v < NAMED ? -1 : v - NAMED;
  }

  /** The item's kept name terms (none when it keeps none). */
  nameTerms(ord: number): string[] {
    const ids = this.kept.get(ord);
    return ids ? Array.from(ids.subarray(1, ids[0]! + 1), this.termText) : NO_TERMS;
  }

  /** The item's kept description terms, sorted (none when it keeps none). */
  descSet(ord: number): string[] {
    const ids = this.kept.get(ord);
    return ids ? Array.from(ids.subarray(ids[0]! + 1), this.termText) : NO_TERMS;
  }

  private readonly termText = (id: number): string => this.terms.text(id)!;

  /** The ordinals of the items whose name key is `nameKey` (not empty), in the order they were recorded. */
  named(nameKey: string): number[] {
    const id = nameKey === '' ? -1 : this.names.id(nameKey);
    if (id < 0) return [];
    const first = this.firstOrd[id]!;
    const rest = this.more.get(id);
    return rest ? [first, ...rest] : [first];
  }

  /** Bytes held (the kept terms' arrays and maps estimated). */
  get byteLength(): number {
    let kept = this.kept.size * 120;
    for (const ids of this.kept.values()) kept += ids.byteLength;
    return this.names.byteLength + this.nameOf.byteLength + this.firstOrd.byteLength + kept + this.terms.byteLength;
  }
}
