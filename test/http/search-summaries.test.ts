// The summaries a search answers are kept between searches and read from the store once, and a change to
// an item (a verdict, a visibility change, a deletion), made through any instance, is in the next
// search's answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { estimatedBytes, SummaryCache } from '../../src/service/summary-cache.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { call, contributeSkill, contributeUnit, fakeClock, register, testConfig } from '../helpers/app.js';

/** The store, counting the summaries it is asked for. */
function counting(store: Store): { store: Store; read: { units: number; skills: number } } {
  const read = { units: 0, skills: 0 };
  const wrapped = Object.create(store) as Store;
  wrapped.unitSummariesBySeq = (seqs) => ((read.units += seqs.length), store.unitSummariesBySeq(seqs));
  wrapped.skillSummariesBySeq = (seqs) => ((read.skills += seqs.length), store.skillSummariesBySeq(seqs));
  return { store: wrapped, read };
}

for (const backend of backends()) {
  describe(`search summaries [${backend.name}]`, () => {
    it('reads a summary from the store once, and again after its item changed on another instance', async () => {
      const db = await backend.shared();
      const stores = [await db.start(), await db.start()];
      const two = counting(stores[1]!);
      const options = {
        config: testConfig(),
        clock: fakeClock(),
        awaitSearchIndex: true,
        limits: { maxEventLoopDelayMs: 0 },
      };
      const apps = [
        await buildApp({ ...options, store: stores[0]! }),
        await buildApp({ ...options, store: two.store }),
      ];
      try {
        const [one, other] = apps as [NonNullable<(typeof apps)[0]>, NonNullable<(typeof apps)[0]>];
        const writer = await register(one, 'writer');
        const checker = await register(one, 'checker');
        const unit = await contributeUnit(one, writer, { title: 'Ocelot habitat survey' });
        const skill = await contributeSkill(one, writer, { name: 'ocelot-tracker', description: 'Track ocelots.' });
        const units = async () => (await call(other, 'GET', '/v1/knowledge?q=ocelot')).json().data;
        const skills = async () => (await call(other, 'GET', '/v1/skills?q=ocelot', { key: writer })).json().data;

        assert.equal((await units())[0].validations.valid, 0);
        assert.equal((await skills())[0].visibility, 'public');
        assert.deepEqual(two.read, { units: 1, skills: 1 });
        assert.equal((await units())[0].validations.valid, 0);
        assert.equal((await skills())[0].visibility, 'public');
        assert.deepEqual(two.read, { units: 1, skills: 1 }, 'the second search reads no summary from the store');

        const verdict = await call(one, 'POST', `/v1/knowledge/${unit.id}/validate`, {
          key: checker,
          body: { valid: true, feedback: 'checked' },
        });
        assert.equal(verdict.statusCode, 200, verdict.body);
        const hidden = await call(one, 'POST', `/v1/skills/${skill.id}/visibility`, {
          key: writer,
          body: { visibility: 'private' },
        });
        assert.equal(hidden.statusCode, 200, hidden.body);
        const [after] = await units();
        assert.equal(after.validations.valid, 1);
        assert.notEqual(after.quality_score, unit.quality_score);
        assert.equal((await skills())[0].visibility, 'private');
        assert.equal((await call(other, 'GET', '/v1/skills?q=ocelot')).json().total, 0, 'hidden from others');

        assert.equal((await call(one, 'DELETE', `/v1/knowledge/${unit.id}`, { key: writer })).statusCode, 200);
        assert.deepEqual(await units(), []);
      } finally {
        for (const app of apps) await app?.close();
        for (const store of stores) await store.close();
        await db.drop();
      }
    });
  });
}

describe('SummaryCache', () => {
  it('keeps what it read, forgets what changed, and keeps nothing read across a change', async () => {
    const cache = new SummaryCache<string>(1_000);
    const asked: number[][] = [];
    const load = async (seqs: readonly number[]) => (asked.push([...seqs]), seqs.map((s) => `item ${s}`));
    assert.deepEqual(await cache.read([1, 2, 3], load), ['item 1', 'item 2', 'item 3']);
    assert.deepEqual(await cache.read([3, 4, 1], load), ['item 3', 'item 4', 'item 1']);
    assert.deepEqual(asked, [[1, 2, 3], [4]]);
    cache.forget([2]);
    await cache.read([2], load);
    assert.deepEqual(asked.at(-1), [2]);
    // A change applied while a read is under way: what that read found is answered, not kept.
    const racing = cache.read([5], async (seqs) => {
      cache.forget([5]);
      return load(seqs);
    });
    assert.deepEqual(await racing, ['item 5']);
    await cache.read([5], load);
    assert.deepEqual(asked.at(-1), [5]);
    // An item gone from the store: left out, and the others still answered in order.
    const gone = async (seqs: readonly number[]) => seqs.filter((s) => s !== 7).map((s) => `item ${s}`);
    assert.deepEqual(await cache.read([6, 7, 1], gone), ['item 6', 'item 1']);
  });

  it('holds at most its bound, the oldest going first unless read since', async () => {
    const cache = new SummaryCache<string>(300);
    const load = async (seqs: readonly number[]) => seqs.map((s) => `item ${s}`);
    for (let seq = 0; seq < 20; seq++) {
      await cache.read([seq], load);
      await cache.read([0], load); // read all along: kept
    }
    assert.ok(cache.size > 1 && cache.size < 20, `kept ${cache.size}`);
    let asked = 0;
    await cache.read([0, 19], async (seqs) => ((asked += seqs.length), seqs.map((s) => `item ${s}`)));
    assert.equal(asked, 0, 'the item read all along and the newest are kept');
  });

  it('holds what a plain queue with second chances holds, through random reads and changes', async () => {
    /** The eviction rule, plainly: oldest first, an entry read since it was last passed moved to the end. */
    class Reference {
      queue: { seq: number; bytes: number; used: boolean }[] = [];
      bytes = 0;
      constructor(readonly max: number) {}
      read(seqs: readonly number[], text: (seq: number) => string): void {
        const missing: number[] = [];
        for (const seq of seqs) {
          const e = this.queue.find((q) => q.seq === seq);
          if (e) e.used = true;
          else missing.push(seq);
        }
        for (const seq of missing) this.put(seq, estimatedBytes(text(seq)));
      }
      put(seq: number, bytes: number): void {
        if (bytes > this.max || this.queue.some((q) => q.seq === seq)) return;
        this.queue.push({ seq, bytes, used: false });
        this.bytes += bytes;
        while (this.bytes > this.max) {
          const e = this.queue.shift()!;
          if (e.used) {
            e.used = false;
            this.queue.push(e);
          } else this.bytes -= e.bytes;
        }
      }
      forget(seqs: readonly number[]): void {
        for (const seq of seqs) {
          const at = this.queue.findIndex((q) => q.seq === seq);
          if (at >= 0) this.bytes -= this.queue.splice(at, 1)[0]!.bytes;
        }
      }
    }
    for (let seed = 1; seed <= 20; seed++) {
      let state = seed;
      const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
      const text = (seq: number) => `item ${seq} ${'x'.repeat((seq * 37) % 90)}`;
      const load = async (seqs: readonly number[]) => seqs.map(text);
      const cache = new SummaryCache<string>(1_500);
      const reference = new Reference(1_500);
      for (let step = 0; step < 400; step++) {
        const seqs = [
          ...new Set(Array.from({ length: 1 + Math.floor(random() * 5) }, () => Math.floor(random() * 60))),
        ];
        if (random() < 0.1) {
          cache.forget(seqs);
          reference.forget(seqs);
        } else {
          await cache.read(seqs, load);
          reference.read(seqs, text);
        }
        assert.equal(cache.size, reference.queue.length, `seed ${seed}, step ${step}`);
      }
      const held = new Set(reference.queue.map((q) => q.seq));
      for (let seq = 0; seq < 60; seq++) {
        let asked = false;
        await cache.read([seq], async (s) => ((asked = true), s.map(text)));
        reference.read([seq], text);
        assert.equal(!asked, held.has(seq), `seed ${seed}: item ${seq}`);
        held.clear();
        for (const q of reference.queue) held.add(q.seq);
      }
    }
  });
});
