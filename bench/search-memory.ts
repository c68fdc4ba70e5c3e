// Where the search index's memory goes: builds the registry's two indexes (KindIndex, as
// registry-search.ts makes them, embeddings off) from the synthetic corpus in this process, then measures
// the heap and array-buffer bytes each part holds by releasing the parts one at a time (with a full GC
// before each reading), and the snapshot's size, write time and load time.
//
//   node --expose-gc --import tsx bench/search-memory.ts [units=100000] [skills=units/10]
//
// Prints a JSON summary (bench/results/search-memory.md keeps the figures).
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus } from './corpus.js';
import { buildIndexes, makeIndexes, unitSearchItem } from './search-items.js';
import { AttributeTable } from '../src/search/attribute-table.js';
import type { KindIndex } from '../src/search/registry-index.js';
import { KeyTable } from '../src/search/key-table.js';
import { ItemNames } from '../src/search/item-names.js';
import { TermStore } from '../src/search/term-store.js';
import { loadIndexSnapshot, snapshotFingerprint, writeIndexSnapshot } from '../src/search/snapshot.js';

/** A snapshot of no database: the bench loads it itself, with no change log to follow. */
const BENCH_MARK = { database: 'bench', position: { tx: 0, seq: 0 }, last: { tx: 0, seq: 0 } };

const units = Number(process.argv[2] ?? 100_000);
const skills = Number(process.argv[3] ?? Math.round(units / 10));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const MiB = 1024 * 1024;
function reading(): { heap: number; buffers: number; rss: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, rss: m.rss };
}
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
const make = makeIndexes;

const c = corpus();
const base = reading();
let t = performance.now();
const indexes = buildIndexes(units, skills, c);
const buildMs = performance.now() - t;
const built = reading();
console.error(`built in ${Math.round(buildMs / 1000)} s: ${JSON.stringify(built)}`);

const postings = indexes.unit.engine.lexical.postingsCount + indexes.skill.engine.lexical.postingsCount;
const terms = indexes.unit.engine.lexical.vocabularySize + indexes.skill.engine.lexical.vocabularySize;
const items = units + skills;
const histogram: Record<string, number> = {};
for (const kind of ['skill', 'unit'] as const)
  for (const [, p] of indexes[kind].engine.lexical.termLists()) {
    const bucket = p.length <= 4 ? String(p.length) : p.length <= 16 ? '5-16' : p.length <= 128 ? '17-128' : '129+';
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  }
let arrayBytes = 0;
let longPostings = 0;
let escapedPostings = 0;
for (const kind of ['skill', 'unit'] as const)
  for (const p of indexes[kind].engine.lexical.postingsLists()) {
    arrayBytes += p.byteLength;
    longPostings += p.length;
    escapedPostings += p.tfs.escLen;
  }
const estimate = (await indexes.unit.memory()).lexicalBytes + (await indexes.skill.memory()).lexicalBytes;

// Snapshot: size, write and load times, and the memory of a loaded index (what a restart holds).
const dir = await mkdtemp(join(tmpdir(), 'kreg-search-memory-'));
const path = join(dir, 'index.snap');
t = performance.now();
await writeIndexSnapshot(path, indexes, BENCH_MARK, snapshotFingerprint('bench'));
const writeMs = performance.now() - t;
const snapshotBytes = (await stat(path)).size;
console.error(`snapshot written in ${Math.round(writeMs)} ms: ${snapshotBytes} bytes`);

// Breakdown by releasing each part in turn (the readings' differences are what each part held).
const parts: Record<string, { heap: number; buffers: number }> = {};
/** Replaces a (private) field of an object, so that what it held can be collected. */
const swap = (object: object, field: string, value: unknown) => Object.assign(object, { [field]: value });
const both = ['skill', 'unit'] as const;
const release = (name: string, fn: () => void) => {
  const before = reading();
  fn();
  const after = reading();
  parts[name] = { heap: before.heap - after.heap, buffers: before.buffers - after.buffers };
};
release('attributes (table, interned texts)', () => {
  for (const kind of both) {
    swap(indexes[kind], 'attributes', new AttributeTable());
    swap(indexes[kind], 'tieBreak', null);
  }
});
release('engine: name keys, kept terms, items by name', () => {
  for (const kind of both) swap(indexes[kind].engine, 'names', new ItemNames());
});
/** The lexical index's private parts (its document table, its term store, the head's view of both). */
const lexicalParts = (kind: 'skill' | 'unit') =>
  indexes[kind].engine.lexical as unknown as { docs: object; terms: object; parts: object };
release('lexical: key to ordinal', () => {
  for (const kind of both) swap(lexicalParts(kind).docs, 'ordOf', new KeyTable());
});
release('lexical: vocabulary + postings', () => {
  for (const kind of both) {
    const empty = new TermStore(4);
    swap(lexicalParts(kind), 'terms', empty);
    swap(lexicalParts(kind).parts, 'terms', empty);
  }
});
release('rest (per-ordinal arrays, engines)', () => {
  indexes.skill = undefined as unknown as KindIndex;
  indexes.unit = undefined as unknown as KindIndex;
});

t = performance.now();
const fresh = make();
await loadIndexSnapshot(path, fresh, snapshotFingerprint('bench'), () => undefined);
const loadMs = performance.now() - t;
const loaded = reading();
// A full collection over the loaded index: what the objects left on the heap cost the collector.
const gcStart = performance.now();
gc();
const fullGcMs = Math.round((performance.now() - gcStart) * 10) / 10;
await rm(dir, { recursive: true, force: true });

// The first writes after a load: new items added to the loaded indexes (the lists they touch grow).
const WRITES = 1_000;
t = performance.now();
for (let i = 0; i < WRITES; i++) fresh.unit.put(unitSearchItem(c, units + i, units + WRITES));
const writesMs = performance.now() - t;
const written = reading();

const total = built.heap + built.buffers - base.heap - base.buffers;
const summary = {
  units,
  skills,
  terms,
  postings,
  buildSeconds: Math.round(buildMs / 100) / 10,
  builtMiB: { heap: mib(built.heap - base.heap), buffers: mib(built.buffers - base.buffers), rss: mib(built.rss) },
  estimateMiB: mib(estimate),
  bytesPerItem: Math.round(total / items),
  bytesPerPosting: Math.round(
    (parts['lexical: vocabulary + postings']!.heap + parts['lexical: vocabulary + postings']!.buffers) / postings,
  ),
  bytesPerTerm: Math.round(
    (parts['lexical: vocabulary + postings']!.heap + parts['lexical: vocabulary + postings']!.buffers) / terms,
  ),
  listLengths: histogram,
  postingsArraysMiB: mib(arrayBytes),
  longPostings,
  escapedPostings,
  partsMiB: Object.fromEntries(
    Object.entries(parts).map(([k, v]) => [k, { heap: mib(v.heap), buffers: mib(v.buffers) }]),
  ),
  snapshot: {
    MiB: mib(snapshotBytes),
    writeSeconds: Math.round(writeMs / 100) / 10,
    loadSeconds: Math.round(loadMs / 100) / 10,
  },
  loadedMiB: { heap: mib(loaded.heap - base.heap), buffers: mib(loaded.buffers - base.buffers), rss: mib(loaded.rss) },
  fullGcMs,
  firstWrites: {
    items: WRITES,
    seconds: Math.round(writesMs / 100) / 10,
    grewMiB: mib(written.heap + written.buffers - loaded.heap - loaded.buffers),
  },
  loadedIndexes: fresh.unit.engine.size + fresh.skill.engine.size,
};
console.log(JSON.stringify(summary, null, 2));
