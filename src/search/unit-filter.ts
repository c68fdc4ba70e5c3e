// The filter of a unit search as data (unit types, domain, quality floor), and the one place it is
// evaluated: over the attribute table's columns by slot (attribute-table.ts), in the main thread and in a
// scoring worker alike (scoring-pool.ts), which reads those columns in place from shared memory.

/** What a unit search admits: any of `types` (none listed: any type), the domain, a quality floor. */
export interface UnitFilter {
  types: readonly string[];
  domain?: string;
  minQuality?: number;
}

/** Ids of texts no item holds (the filter's value then matches nothing). */
export const NO_TEXT = -2;

/** A UnitFilter with its texts as the attribute table's ids (NO_TEXT: a text no item has). */
export interface ResolvedUnitFilter {
  /** null: any type. */
  types: Int32Array | null;
  /** null: any domain. */
  domain: number | null;
  /** null: any quality. */
  minQuality: number | null;
}

/** The attribute table's columns a filter reads, by slot, and each key's slot + 1 (0: absent). */
export interface FilterColumns {
  slotOf: Int32Array;
  /** REFS per slot: the ids of the slot's texts (see attribute-table.ts). */
  refs: Int32Array;
  quality: Float64Array;
}

/** Texts per slot in `refs`, and where a unit's domain and type are among them. */
export const REFS = 5;
export const REF_DOMAIN = 0;
export const REF_TYPE = 3;

/** Whether the item in `slot` passes the filter (`refs` and `quality`: the columns of FilterColumns). */
export function admitsSlot(refs: Int32Array, quality: Float64Array, f: ResolvedUnitFilter, slot: number): boolean {
  const r = slot * REFS;
  if (f.domain !== null && refs[r + REF_DOMAIN] !== f.domain) return false;
  if (f.types !== null) {
    const type = refs[r + REF_TYPE]!;
    let found = false;
    for (let i = 0; i < f.types.length && !found; i++) found = f.types[i] === type;
    if (!found) return false;
  }
  return f.minQuality === null || quality[slot]! >= f.minQuality;
}

/** A predicate over keys from the columns alone (a key the array does not hold is not admitted). */
export function columnFilter(c: FilterColumns, f: ResolvedUnitFilter): (key: number) => boolean {
  const { slotOf, refs, quality } = c;
  return (key: number) => {
    const v = key < slotOf.length ? slotOf[key]! : 0;
    return v > 0 && admitsSlot(refs, quality, f, v - 1);
  };
}
