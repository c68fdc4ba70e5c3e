// The attribute table's id column (attribute-table.ts): each slot's id as up to ID_WIDTH ASCII bytes in
// place (a million ids cost no string each), any other id as text beside; ids compare byte by byte, which
// orders them exactly as comparing their texts does.
import { resized } from './typed-arrays.js';

const ID_WIDTH = 32;
/** In the length column: the id is kept as text beside. */
const ID_TEXT = 255;

export class IdColumn {
  private bytes = new Uint8Array(0);
  private lens = new Uint8Array(0);
  private readonly texts = new Map<number, string>();

  /** Room for `slots` slots. */
  grow(slots: number): void {
    this.bytes = resized(this.bytes, slots * ID_WIDTH);
    this.lens = resized(this.lens, slots);
  }

  set(s: number, id: string): void {
    this.texts.delete(s);
    if (id.length > ID_WIDTH || !/^[\x00-\x7f]*$/.test(id)) {
      this.lens[s] = ID_TEXT;
      this.texts.set(s, id);
      return;
    }
    this.lens[s] = id.length;
    const o = s * ID_WIDTH;
    for (let i = 0; i < id.length; i++) this.bytes[o + i] = id.charCodeAt(i);
  }

  get(s: number): string {
    const n = this.lens[s]!;
    if (n === ID_TEXT) return this.texts.get(s)!;
    return String.fromCharCode(...this.bytes.subarray(s * ID_WIDTH, s * ID_WIDTH + n));
  }

  /** Forgets a slot's id kept as text. */
  clear(s: number): void {
    this.texts.delete(s);
  }

  /** The order of two slots' ids as texts (ASCII bytes compare as their code units do). */
  compare(a: number, b: number): number {
    const na = this.lens[a]!;
    const nb = this.lens[b]!;
    if (na === ID_TEXT || nb === ID_TEXT) {
      const ia = this.get(a);
      const ib = this.get(b);
      return ia < ib ? -1 : ia > ib ? 1 : 0;
    }
    const oa = a * ID_WIDTH;
    const ob = b * ID_WIDTH;
    const n = Math.min(na, nb);
    for (let i = 0; i < n; i++) {
      const d = this.bytes[oa + i]! - this.bytes[ob + i]!;
      if (d) return d;
    }
    return na - nb;
  }

  /** Bytes held (the texts beside estimated). */
  get byteLength(): number {
    return this.bytes.byteLength + this.lens.byteLength + this.texts.size * 80;
  }
}
