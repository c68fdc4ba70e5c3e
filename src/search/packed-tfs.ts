// A long postings list's term frequencies, packed (postings.ts): 2 bits a field, four fields a byte, the
// frequency itself when it is 0, 1 or 2, and 3 for three or more; the whole row of a posting that has a 3
// is kept beside, in a side table of (posting, row) sorted by posting. Most frequencies are 0 or 1, so a
// posting's frequencies cost one byte (four fields) instead of one a field, plus (4 + nf) bytes for the
// few rows with a larger one. Every reader gets the exact rows back (row()).

import { grownCapacity, resized } from './typed-arrays.js';

/** The code of a frequency of three or more: the row is in the side table. */
const ESCAPE = 3;

/** Bytes of codes per posting for `nf` fields. */
export const codeBytes = (nf: number): number => (nf + 3) >> 2;

/** Packed rows as saved: `codes` codeBytes(nf) per posting; the side table's postings (ascending) and rows. */
export interface PackedRows {
  codes: Uint8Array;
  escIdx: Int32Array;
  escRows: Uint8Array;
  escLen: number;
}

/** Writes the codes of `row[off..off+nf)` for posting `i`; answers whether the row needs the side table. */
function putCodes(codes: Uint8Array, i: number, nf: number, row: ArrayLike<number>, off: number): boolean {
  const width = codeBytes(nf);
  let escaped = false;
  for (let b = 0; b < width; b++) {
    let byte = 0;
    for (let k = 0; k < 4 && b * 4 + k < nf; k++) {
      const tf = row[off + b * 4 + k]!;
      const code = tf >= ESCAPE ? ESCAPE : tf;
      if (code === ESCAPE) escaped = true;
      byte |= code << (2 * k);
    }
    codes[i * width + b] = byte;
  }
  return escaped;
}

/** Whether posting `i`'s codes send to the side table (a field coded 3: both bits of a pair set). */
function escapedAt(codes: Uint8Array, i: number, width: number): boolean {
  for (let b = 0; b < width; b++) {
    const byte = codes[i * width + b]!;
    if ((byte & (byte >> 1) & 0x55) !== 0) return true;
  }
  return false;
}

/** The first place in the side table of a posting at or after `i` (binary search). */
function lowerBound(escIdx: Int32Array, escLen: number, i: number): number {
  let lo = 0;
  let hi = escLen;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (escIdx[mid]! < i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Posting `i`'s row of packed rows `p`, into `out[0..nf)`. */
export function rowOf(p: PackedRows, nf: number, i: number, out: Uint8Array): Uint8Array {
  const width = codeBytes(nf);
  if (escapedAt(p.codes, i, width)) {
    const e = lowerBound(p.escIdx, p.escLen, i);
    for (let f = 0; f < nf; f++) out[f] = p.escRows[e * nf + f]!;
    return out;
  }
  for (let f = 0; f < nf; f++) out[f] = (p.codes[i * width + (f >> 2)]! >> ((f & 3) * 2)) & 3;
  return out;
}

export class PackedTfs implements PackedRows {
  codes: Uint8Array;
  escIdx = EMPTY_IDX;
  escRows = EMPTY_ROWS;
  escLen = 0;
  /** Set when its list is settled (trimmed or restored): the list and this side table then grow by a small share (grownCapacity). */
  settled = false;
  private readonly width: number;

  constructor(
    readonly nf: number,
    capacity: number,
  ) {
    this.width = codeBytes(nf);
    this.codes = new Uint8Array(capacity * this.width);
  }

  /** Packed rows from saved ones (copied; `n` postings), with room for `capacity`. */
  static restored(nf: number, saved: PackedRows, n: number, capacity: number): PackedTfs {
    const t = new PackedTfs(nf, capacity);
    t.settled = true;
    t.codes.set(saved.codes.subarray(0, n * t.width));
    if (saved.escLen > 0) {
      t.escIdx = saved.escIdx.slice(0, saved.escLen);
      t.escRows = saved.escRows.slice(0, saved.escLen * nf);
      t.escLen = saved.escLen;
    }
    return t;
  }

  /** Rows `rows[i * nf ..]` for postings 0..n-1, packed. */
  static of(nf: number, rows: Uint8Array, n: number): PackedTfs {
    const t = new PackedTfs(nf, n);
    for (let i = 0; i < n; i++) t.set(i, rows, i * nf);
    return t;
  }

  /** Postings the codes have room for. */
  get capacity(): number {
    return this.codes.length / this.width;
  }

  /** Sets posting `i`'s row to `row[off..off+nf)` (frequencies at most 255); `i` after every posting in the side table. */
  set(i: number, row: ArrayLike<number>, off = 0): void {
    if (!putCodes(this.codes, i, this.nf, row, off)) return;
    const nf = this.nf;
    if (this.escLen === this.escIdx.length) {
      const cap = grownCapacity(this.escLen, this.settled);
      this.escIdx = resized(this.escIdx, cap);
      this.escRows = resized(this.escRows, cap * nf);
    }
    const e = this.escLen++;
    this.escIdx[e] = i;
    for (let f = 0; f < nf; f++) this.escRows[e * nf + f] = Math.min(255, row[off + f]!);
  }

  /** Posting `i`'s row, into `out[0..nf)`. */
  row(i: number, out: Uint8Array): Uint8Array {
    return rowOf(this, this.nf, i, out);
  }

  /** Whether posting `i`'s frequency in field `f` is positive. */
  positive(i: number, f: number): boolean {
    return ((this.codes[i * this.width + (f >> 2)]! >> ((f & 3) * 2)) & 3) !== 0;
  }

  /** Keeps the postings 0..n-1 that `keep` admits, in order; answers how many. */
  retain(n: number, keep: (i: number) => boolean): number {
    const width = this.width;
    const nf = this.nf;
    let w = 0;
    let e = 0;
    let we = 0;
    for (let i = 0; i < n; i++) {
      const esc = e < this.escLen && this.escIdx[e] === i;
      if (!keep(i)) {
        if (esc) e++;
        continue;
      }
      if (w !== i) this.codes.copyWithin(w * width, i * width, (i + 1) * width);
      if (esc) {
        this.escIdx[we] = w;
        if (we !== e) this.escRows.copyWithin(we * nf, e * nf, (e + 1) * nf);
        we++;
        e++;
      }
      w++;
    }
    this.escLen = we;
    return w;
  }

  /** Room for `capacity` postings (cut or grown; the side table is cut to its length when it is mostly empty). */
  resize(capacity: number): void {
    this.codes = resized(this.codes, capacity * this.width);
    if (this.escIdx.length > 2 * this.escLen + 4) {
      this.escIdx = this.escIdx.slice(0, this.escLen);
      this.escRows = this.escRows.slice(0, this.escLen * this.nf);
    }
  }

  /** The rows as saved (views of the arrays now: they change with the list). */
  saved(): PackedRows {
    return { codes: this.codes, escIdx: this.escIdx, escRows: this.escRows, escLen: this.escLen };
  }

  get byteLength(): number {
    return this.codes.byteLength + this.escIdx.byteLength + this.escRows.byteLength;
  }
}

const EMPTY_IDX = new Int32Array(0);
const EMPTY_ROWS = new Uint8Array(0);

/** Whether saved packed rows of `n` postings fit: codes long enough, a side-table row exactly where a code says 3, agreeing with the codes. */
export function packedFits(p: PackedRows, n: number, nf: number): boolean {
  const width = codeBytes(nf);
  if (p.codes.length < n * width || p.escIdx.length < p.escLen || p.escRows.length < p.escLen * nf) return false;
  let e = 0;
  for (let i = 0; i < n; i++) {
    if (!escapedAt(p.codes, i, width)) continue;
    if (e >= p.escLen || p.escIdx[e] !== i) return false;
    for (let f = 0; f < nf; f++) {
      const tf = p.escRows[e * nf + f]!;
      const code = (p.codes[i * width + (f >> 2)]! >> ((f & 3) * 2)) & 3;
      if (code !== (tf >= ESCAPE ? ESCAPE : tf)) return false;
    }
    e++;
  }
  return e === p.escLen;
}

/** How many of the side table's rows belong to the first `n` postings. */
export function escapesBelow(p: PackedRows, n: number): number {
  return lowerBound(p.escIdx, p.escLen, n);
}
