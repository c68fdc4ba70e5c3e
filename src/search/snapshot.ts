// The search index saved to disk, so a restart loads it in seconds instead of rebuilding it from the
// store, then catches up from the store's change log (from the sequence the snapshot was taken at).
// The file (snapshot-file.ts) holds, per kind: the lexical index's head (ordinals' keys, liveness,
// field lengths), every term's postings (long and short lists alike: ordinals, term frequencies packed as
// packed-tfs.ts keeps them with their side table, impacts), each item's name key and kept terms,
// and its attributes as rows of values (attribute-table.ts's SavedRow).
// Vectors are not in it: they are loaded from the store, per model.
//
// Written a slice at a time (slices.ts) while the index keeps changing: the head is copied when the
// snapshot begins, postings of later ordinals are left out, and the items changed meanwhile are saved
// with a fingerprint no text has, so the catch-up after loading (which replays every change since the
// beginning) indexes them again. A file of another format, analyzer or configuration (`fingerprint`),
// or one that fails its digest, is not loaded: the index is rebuilt from the store.
import { endianness } from 'node:os';
import { SLICE_MS } from './slices.js';
import { readSnapshot, SnapshotWriter, type SnapshotRecord } from './snapshot-file.js';
import type { SavedList } from './term-store.js';
import { codeBytes, escapesBelow } from './packed-tfs.js';
import type { KindIndex } from './registry-index.js';
import { fromSavedRow, savedRow, type SavedRow } from './attribute-row.js';
import type { ItemInfo } from './item-names.js';
import type { LexicalHead } from './lexical.js';
import type { LogPosition } from './feed.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** Raised when the layout of the file changes; an older file is then rebuilt from the store. */
export const SNAPSHOT_FORMAT = 6;
const KINDS = ['skill', 'unit'] as const;
type Kind = (typeof KINDS)[number];
const CHUNK_TERMS = 4_096;
const CHUNK_POSTINGS = 1_000_000;
const CHUNK_ITEMS = 4_096;
const NO_ESCAPES = new Int32Array(0);
/** Saved in place of a changed item's text fingerprint: it matches no text, so the item is indexed again. */
const STALE_TEXT = -1;

/**
 * Which database and which point of its change log a snapshot stands for: the database's identity, the
 * settled position the catch-up starts from, and the newest change the log held then (a database restored
 * from an older backup no longer holds it).
 */
export interface SnapshotMark {
  database: string;
  position: LogPosition;
  last: LogPosition;
}

interface Header {
  format: number;
  fingerprint: string;
  mark: SnapshotMark;
  items: number;
}

/** What makes a snapshot usable: the format, the byte order, and whatever shapes the index (the caller's). */
export function snapshotFingerprint(shape: unknown): string {
  return JSON.stringify({ format: SNAPSHOT_FORMAT, endianness: endianness(), shape });
}

async function each<T>(values: Iterable<T>, fn: (value: T) => Promise<void> | void): Promise<void> {
  let start = performance.now();
  for (const value of values) {
    await fn(value);
    if (performance.now() - start >= SLICE_MS) {
      await yieldToLoop();
      start = performance.now();
    }
  }
}

/** Writes the indexes' state as of now (`mark`: the database and the change log's position they stand at) to `path`. */
export async function writeIndexSnapshot(
  path: string,
  indexes: Record<Kind, KindIndex>,
  mark: SnapshotMark,
  fingerprint: string,
): Promise<number> {
  const heads = { skill: indexes.skill.engine.lexical.head(), unit: indexes.unit.engine.lexical.head() };
  for (const kind of KINDS) indexes[kind].touched = new Set();
  const out = await SnapshotWriter.create(path);
  try {
    const items = indexes.skill.attributes.size + indexes.unit.attributes.size;
    await out.json({ format: SNAPSHOT_FORMAT, fingerprint, mark, items } satisfies Header);
    for (const kind of KINDS) await writeKind(out, kind, indexes[kind], heads[kind]);
    await out.json({ end: true });
    await out.commit();
    return items;
  } catch (error) {
    await out.abandon();
    throw error;
  } finally {
    for (const kind of KINDS) indexes[kind].touched = null;
  }
}

async function writeKind(out: SnapshotWriter, kind: Kind, index: KindIndex, head: LexicalHead): Promise<void> {
  const { lens, keys, alive, ...scalars } = head;
  await out.json({ kind, head: scalars });
  await out.bytes(lens);
  await out.bytes(keys);
  await out.bytes(alive);
  // Terms, in chunks: names, owners and lengths as JSON, then the arrays of all their postings (ordinals,
  // packed term frequencies and their side table, impacts).
  let terms: [string, number, number][] = [];
  let lists: SavedList[] = [];
  let postings = 0;
  const nf = index.engine.lexical.fields.length;
  const width = codeBytes(nf);
  const flush = async () => {
    if (terms.length === 0) return;
    let escapes = 0;
    for (const [i, p] of lists.entries()) escapes += escapesBelow(p.tfs, terms[i]![2]);
    const docs = new Int32Array(postings);
    const codes = new Uint8Array(postings * width);
    const escIdx = new Int32Array(escapes);
    const escRows = new Uint8Array(escapes * nf);
    const imp = new Uint16Array(postings);
    let at = 0;
    let e = 0;
    for (const [i, p] of lists.entries()) {
      const n = terms[i]![2];
      docs.set(p.docs.subarray(0, n), at);
      codes.set(p.tfs.codes.subarray(0, n * width), at * width);
      const k = escapesBelow(p.tfs, n);
      for (let j = 0; j < k; j++) escIdx[e + j] = p.tfs.escIdx[j]! + at;
      escRows.set(p.tfs.escRows.subarray(0, k * nf), e * nf);
      e += k;
      imp.set(p.imp.subarray(0, n), at);
      at += n;
    }
    await out.json({ terms });
    for (const array of [docs, codes, escIdx, escRows, imp]) await out.bytes(array);
    terms = [];
    lists = [];
    postings = 0;
  };
  await each(index.engine.lexical.termLists(), async ([term, p]) => {
    // Postings of ordinals given after the head was copied belong to changes the catch-up replays.
    let n = p.length;
    while (n > 0 && p.docs[n - 1]! >= head.nextOrd) n--;
    if (n === 0) return;
    // A view into a short list's pool changes with the index: copied now.
    const at = p.pooled ? { ...p, docs: p.docs.slice(0, n), imp: p.imp.slice(0, n) } : p;
    terms.push([term, p.owner, n]);
    lists.push(at);
    postings += n;
    if (terms.length >= CHUNK_TERMS || postings >= CHUNK_POSTINGS) await flush();
  });
  await flush();
  const touched = index.touched!;
  let chunk: unknown[] = [];
  const items = async (tag: 'items' | 'attributes') => {
    if (chunk.length > 0) await out.json({ [tag]: chunk });
    chunk = [];
  };
  await each(index.engine.items(), async ([key, info]) => {
    chunk.push([key, info.nameKey, info.nameTerms, info.descSet]);
    if (chunk.length >= CHUNK_ITEMS) await items('items');
  });
  await items('items');
  await each(index.attributes, async ([seq, a]) => {
    chunk.push([seq, savedRow(touched.has(seq) ? { ...a, textKey: STALE_TEXT } : a)]);
    if (chunk.length >= CHUNK_ITEMS) await items('attributes');
  });
  await items('attributes');
  await out.json({ end: kind });
}

/** Typed arrays over a copy of the bytes (a record's bytes are not aligned). */
const copy = <T>(bytes: Buffer, make: (buffer: ArrayBuffer) => T): T =>
  make(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/**
 * Loads a snapshot into `fresh` (empty indexes made like the live ones); answers the change it was taken
 * at, or throws (no such file, another fingerprint, a damaged file). `progress` counts items loaded.
 */
export async function loadIndexSnapshot(
  path: string,
  fresh: Record<Kind, KindIndex>,
  fingerprint: string,
  progress: (items: number, total: number) => void,
): Promise<SnapshotMark> {
  const records = readSnapshot(path);
  const next = async (): Promise<SnapshotRecord> => {
    const r = await records.next();
    if (r.done) throw new Error('the snapshot ends early');
    return r.value;
  };
  const json = async <T>(): Promise<T> => {
    const r = await next();
    if (r.type !== 'json') throw new Error('the snapshot has bytes where a description belongs');
    return r.value as T;
  };
  const bytes = async (): Promise<Buffer> => {
    const r = await next();
    if (r.type !== 'bytes') throw new Error('the snapshot has a description where bytes belong');
    return r.bytes;
  };
  const header = await json<Header>();
  if (header.format !== SNAPSHOT_FORMAT || header.fingerprint !== fingerprint)
    throw new Error('the snapshot was made by another version or configuration');
  let loaded = 0;
  for (const kind of KINDS) {
    const index = fresh[kind];
    const lexical = index.engine.lexical;
    const nf = lexical.fields.length;
    const width = codeBytes(nf);
    const { kind: saved, head } = await json<{ kind: string; head: Omit<LexicalHead, 'lens' | 'keys' | 'alive'> }>();
    if (saved !== kind) throw new Error('the snapshot holds its kinds in another order');
    const lens = copy(await bytes(), (b) => new Uint32Array(b));
    const keys = copy(await bytes(), (b) => new Float64Array(b));
    const alive = copy(await bytes(), (b) => new Uint8Array(b));
    lexical.restoreHead({ ...head, lens, keys, alive });
    let record = await json<{
      terms?: [string, number, number][];
      items?: [number, string, string[], string[]][];
      attributes?: [number, SavedRow][];
      end?: string;
    }>();
    let start = performance.now();
    const breathe = async () => {
      if (performance.now() - start < SLICE_MS) return;
      await yieldToLoop();
      start = performance.now();
    };
    while (record.terms) {
      const docs = copy(await bytes(), (b) => new Int32Array(b));
      const codes = copy(await bytes(), (b) => new Uint8Array(b));
      const escIdx = copy(await bytes(), (b) => new Int32Array(b));
      const escRows = copy(await bytes(), (b) => new Uint8Array(b));
      const imp = copy(await bytes(), (b) => new Uint16Array(b));
      if (escRows.length !== escIdx.length * nf)
        throw new Error('a snapshot chunk of term frequencies of the wrong length');
      let at = 0;
      let e = 0;
      for (const [term, owner, n] of record.terms) {
        if (!Number.isInteger(n) || n < 0 || at + n > docs.length)
          throw new Error('a snapshot list of the wrong length');
        let k = 0;
        while (e + k < escIdx.length && escIdx[e + k]! < at + n) k++;
        lexical.restoreList(term, {
          docs: docs.subarray(at, at + n),
          tfs: {
            codes: codes.subarray(at * width, (at + n) * width),
            escIdx: k === 0 ? NO_ESCAPES : escIdx.subarray(e, e + k).map((i) => i - at),
            escRows: escRows.subarray(e * nf, (e + k) * nf),
            escLen: k,
          },
          imp: imp.subarray(at, at + n),
          length: n,
          owner,
        });
        at += n;
        e += k;
        await breathe();
      }
      if (at !== docs.length || e !== escIdx.length)
        throw new Error('a snapshot chunk of postings of the wrong length');
      record = await json();
    }
    for (let ord = 0; ord < head.nextOrd; ord++) {
      lexical.restoreOrdinal(ord);
      if ((ord & 1023) === 0) await breathe();
    }
    while (record.items) {
      for (const [key, nameKey, nameTerms, descSet] of record.items)
        index.engine.restoreItem(key, { nameKey, nameTerms, descSet } satisfies ItemInfo);
      await breathe();
      record = await json();
    }
    while (record.attributes) {
      for (const [seq, row] of record.attributes) index.restoreAttributes(seq, fromSavedRow(row));
      loaded += record.attributes.length;
      progress(loaded, header.items);
      await breathe();
      record = await json();
    }
    if (record.end !== kind) throw new Error('the snapshot has records out of order');
  }
  if ((await json<{ end?: boolean }>()).end !== true) throw new Error('the snapshot has records out of order');
  // The digest is checked once the last record is read.
  if (!(await records.next()).done) throw new Error('the snapshot has records after its end');
  return header.mark;
}
