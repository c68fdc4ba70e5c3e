// A search's filter as data: a list's condition (src/domain/filters.ts) with its texts resolved to the
// attribute table's ids, and the one place it is evaluated, over the table's columns by slot
// (attribute-table.ts), in the main thread and in a scoring worker alike (scoring-pool.ts), which reads
// those columns in place from shared memory. Visibility is a condition like any other, so every search,
// skills' included, can be scored off the event loop.
import type { Condition, FilterAttr } from '../domain/filters.js';

/** The id of a text no item holds (the filter's value then matches nothing). */
export const NO_TEXT = -2;

/** Texts per slot in the `refs` column, and where each attribute is among them. */
export const REFS = 5;
export const REF = { domain: 0, visibility: 1, publisher: 2, type: 3, name: 4 } as const;

/** The yes-or-no attributes, as two bits each of the `flags` column: whether the item has it, and its value. */
export const FLAGS = {
  listed: { has: 2, yes: 1 },
  conformant: { has: 8, yes: 4 },
  held: { has: 32, yes: 16 },
} as const;
const FLAG_ORDER = ['listed', 'conformant', 'held'] as const;

/** A condition whose texts are the attribute table's ids. */
export type ResolvedFilter =
  | { ref: number; ids: Int32Array }
  | { flag: number; yes: boolean }
  | { atLeast: number }
  | { tags: Int32Array }
  | { and: ResolvedFilter[] }
  | { or: ResolvedFilter[] };

/** The attribute table's columns a filter reads, by slot, and each key's slot + 1 (0: absent). */
export interface FilterColumns {
  slotOf: Int32Array;
  /** REFS per slot: the ids of the slot's texts. */
  refs: Int32Array;
  quality: Float64Array;
  flags: Uint8Array;
  /** An item's tag ids: tagLen[slot] of them from tagOff[slot] in tagPool. */
  tagOff: Uint32Array;
  tagLen: Uint16Array;
  tagPool: Int32Array;
}

/** The condition with its texts as ids (`id` answers NO_TEXT for a text no item holds). */
export function resolveFilter(condition: Condition, id: (text: string) => number): ResolvedFilter {
  if ('and' in condition) return { and: condition.and.map((c) => resolveFilter(c, id)) };
  if ('or' in condition) return { or: condition.or.map((c) => resolveFilter(c, id)) };
  const { attr } = condition;
  if ('allOf' in condition) {
    if (attr !== 'tags') throw new Error(`${attr} is not filtered by all-of`);
    return { tags: Int32Array.from(condition.allOf, id) };
  }
  if ('atLeast' in condition) {
    if (attr !== 'quality') throw new Error(`${attr} is not filtered by at-least`);
    return { atLeast: condition.atLeast };
  }
  const flag = FLAG_ORDER.indexOf(attr as (typeof FLAG_ORDER)[number]);
  if (flag >= 0) {
    if (!('equals' in condition) || typeof condition.equals !== 'boolean') throw new Error(`${attr} is true or false`);
    return { flag, yes: condition.equals };
  }
  const ref = (REF as Partial<Record<FilterAttr, number>>)[attr];
  if (ref === undefined) throw new Error(`the index keeps no ${attr}`);
  const texts = 'anyOf' in condition ? condition.anyOf : [condition.equals as string];
  return { ref, ids: Int32Array.from(texts, id) };
}

const FLAG_BITS = FLAG_ORDER.map((name) => FLAGS[name]);

/** The filter as a predicate over slots, reading the columns (built once per search, allocates nothing per call). */
export function slotFilter(c: Omit<FilterColumns, 'slotOf'>, f: ResolvedFilter): (slot: number) => boolean {
  if ('and' in f) {
    const parts = f.and.map((g) => slotFilter(c, g));
    return (slot) => parts.every((part) => part(slot));
  }
  if ('or' in f) {
    const parts = f.or.map((g) => slotFilter(c, g));
    return (slot) => parts.some((part) => part(slot));
  }
  if ('atLeast' in f) return (slot) => c.quality[slot]! >= f.atLeast;
  if ('flag' in f) {
    const { has, yes } = FLAG_BITS[f.flag]!;
    const want = has | (f.yes ? yes : 0);
    return (slot) => (c.flags[slot]! & (has | yes)) === want;
  }
  if ('tags' in f) {
    const wanted = f.tags;
    return (slot) => {
      const off = c.tagOff[slot]!;
      const len = c.tagLen[slot]!;
      for (let w = 0; w < wanted.length; w++) {
        let found = false;
        for (let i = 0; i < len && !found; i++) found = c.tagPool[off + i] === wanted[w];
        if (!found) return false;
      }
      return true;
    };
  }
  const { ref, ids } = f;
  return (slot) => {
    const value = c.refs[slot * REFS + ref]!;
    for (let i = 0; i < ids.length; i++) if (ids[i] === value) return true;
    return false;
  };
}

/** A predicate over keys from the columns alone (a key the array does not hold is not admitted). */
export function columnFilter(c: FilterColumns, f: ResolvedFilter): (key: number) => boolean {
  const { slotOf } = c;
  const admits = slotFilter(c, f);
  return (key: number) => {
    const v = key < slotOf.length ? slotOf[key]! : 0;
    return v > 0 && admits(v - 1);
  };
}
