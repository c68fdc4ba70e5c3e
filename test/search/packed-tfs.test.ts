import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Postings } from '../../src/search/postings.js';
import { packedFits, PackedTfs } from '../../src/search/packed-tfs.js';
import { Bm25fImpacts } from '../../src/search/bm25f.js';

// Term frequencies as they come: mostly 0 and 1, some 2, a few larger (up to past the 255 cap).
const tf = fc.oneof(
  { weight: 12, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.constant(2) },
  { weight: 1, arbitrary: fc.integer({ min: 3, max: 300 }) },
);
const rows = (nf: number) => fc.array(fc.array(tf, { minLength: nf, maxLength: nf }), { maxLength: 400 });
const capped = (row: number[]) => row.map((x) => Math.min(255, x));

/** Every row of the list, unpacked. */
function unpacked(list: Postings): number[][] {
  const out: number[][] = [];
  const row = new Uint8Array(list.nf);
  for (let i = 0; i < list.length; i++) out.push([...list.row(i, row)]);
  return out;
}

test('packed term frequencies read back exactly as the plain rows, for any number of fields', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 9 }).chain((nf) => fc.tuple(fc.constant(nf), rows(nf))),
      ([nf, plain]) => {
        const list = new Postings(nf);
        plain.forEach((r, i) => list.push(i, r, 1));
        assert.deepEqual(unpacked(list), plain.map(capped));
        for (let f = 0; f < nf; f++)
          for (let i = 0; i < plain.length; i++) assert.equal(list.tfs.positive(i, f), plain[i]![f]! > 0);
        // Saved and restored (a snapshot's way), and trimmed.
        const saved = list.tfs.saved();
        assert.ok(packedFits(saved, list.length, nf));
        const back = Postings.restored(nf, list.docs.slice(0, list.length), saved, list.imp.slice(0, list.length));
        assert.deepEqual(unpacked(back), plain.map(capped));
        list.trim();
        assert.deepEqual(unpacked(list), plain.map(capped));
      },
    ),
  );
});

test('compaction, live ordinals and recomputed impacts give what the plain rows give', () => {
  const nf = 4;
  const fields = [
    { weight: 10, b: 0.5 },
    { weight: 5, b: 0.75 },
    { weight: 3, b: 0.5 },
    { weight: 1, b: 0.75 },
  ];
  fc.assert(
    fc.property(
      rows(nf),
      fc.array(fc.boolean(), { minLength: 400, maxLength: 400 }),
      fc.subarray([0, 1, 2, 3], { minLength: 1 }),
      (plain, aliveFlags, someFields) => {
        const list = new Postings(nf);
        plain.forEach((r, i) => list.push(i, r, 0));
        const alive = Uint8Array.from(aliveFlags, (a) => (a ? 1 : 0));
        const live = plain.map((r, i) => ({ r: capped(r), i })).filter(({ i }) => alive[i]);
        assert.deepEqual(
          list.liveOrdinals(someFields, alive),
          live.filter(({ r }) => someFields.some((f) => r[f]! > 0)).map(({ i }) => i),
        );
        const lens = Uint32Array.from({ length: 400 * nf }, (_, i) => 1 + ((i * 7) % 23));
        const bm25f = new Bm25fImpacts(fields, 1.2);
        bm25f.rebase(Float64Array.from([4000, 9000, 2000, 30000]), 400);
        const kept = list.retainLive(alive);
        if (kept === 0) return;
        assert.deepEqual(
          unpacked(list),
          live.map(({ r }) => r),
        );
        assert.deepEqual(
          [...list.docs.subarray(0, kept)],
          live.map(({ i }) => i),
        );
        list.refreshImpacts((row, ord) => bm25f.impact(row, 0, lens, ord * nf));
        const expected = live.map(({ r, i }) => Math.fround(bm25f.impact(r, 0, lens, i * nf)));
        assert.deepEqual([...list.imp.subarray(0, kept)], expected);
      },
    ),
  );
});

test('a posting costs one byte of term frequencies for four fields, a larger one adds a row beside', () => {
  const packed = new PackedTfs(4, 1000);
  for (let i = 0; i < 1000; i++) packed.set(i, i % 100 === 0 ? [7, 0, 1, 0] : [1, 0, 0, 2]);
  assert.equal(packed.codes.byteLength, 1000);
  assert.equal(packed.escLen, 10);
});

test('saved packed rows that disagree with their side table are refused', () => {
  const packed = PackedTfs.of(4, Uint8Array.from([1, 0, 0, 0, 9, 0, 0, 0, 0, 2, 0, 0]), 3);
  assert.ok(packedFits(packed.saved(), 3, 4));
  const missing = { ...packed.saved(), escLen: 0 };
  assert.equal(packedFits(missing, 3, 4), false, 'an escaped posting without its row');
  const wrong = { ...packed.saved(), escRows: Uint8Array.from([2, 0, 0, 0]) };
  assert.equal(packedFits(wrong, 3, 4), false, 'a row that does not agree with its codes');
  assert.equal(packedFits({ ...packed.saved(), codes: new Uint8Array(2) }, 3, 4), false, 'codes too short');
});
