// The SQLite unit lists take a shortcut (totals from bucket counts, counting row by row only the bucket
// that min_quality cuts through); it must give exactly what the plain query gives, on the main thread and
// in read workers. The plain queries run beside them on the same file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { KnowledgeUnit, UnitType } from '../../src/domain/model.js';
import { decideVerdict } from '../../src/domain/verdicts.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { agentKey } from '../helpers/keys.js';
import { unitQuery, type UnitFilters } from '../helpers/lists.js';

type UnitSpec = UnitFilters & { types: string[]; limit: number; offset: number };

// Scores on both sides of bucket edges, including ones whose × 100 is not exact in binary (0.29, 0.57).
const QUALITIES = [0, 0.1, 0.29, 0.2999, 0.3, 0.4999, 0.5, 0.5001, 0.57, 0.58, 0.7, 0.99, 1];
const DOMAINS = ['web', 'data', 'ops'];
const TYPES: UnitType[] = ['pattern', 'fact', 'pitfall'];
const FLOORS = [undefined, 0, 0.28, 0.29, 0.2999, 0.3, 0.5, 0.5001, 0.56, 0.57, 0.58, 0.999, 1, 0.123];

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Where lists run: on the calling thread, or in worker threads (read-pool.ts). */
const PLACES: [string, number][] = [
  ['on the main thread', 0],
  ['in read workers', 2],
];

describe('SQLite unit lists: every shortcut gives what the plain query gives', () => {
  const dir = mkdtempSync(join(tmpdir(), 'unit-lists-'));
  const file = join(dir, 'lists.db');
  const stores: Store[] = [];
  let plain: Database.Database;

  before(async () => {
    const writer = openSqliteStore(`sqlite:${file}`);
    stores.push(writer);
    const at = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, 0) + n * 1000).toISOString();
    for (const agent of ['writer', 'judge']) {
      await writer.createAgentWithKey(agentKey(agent, at(0)));
    }
    const random = rng(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    for (let i = 0; i < 240; i++) {
      // Words in most units (alpha, beta), in some (gamma), in few (delta); repeated texts tie in bm25.
      const words = ['alpha', 'beta', 'gamma', 'delta'].filter((_, w) => random() < [0.85, 0.7, 0.3, 0.05][w]!);
      const text = i % 7 === 0 ? 'alpha beta repeated text' : `${words.join(' ')} unit ${i % 23}`;
      const quality = pick(QUALITIES);
      // Several units share a timestamp, so ids break the ties of quality and time.
      const unit: KnowledgeUnit = {
        id: `ku_${(i * 7919) % 1000}_${i}`,
        agent_id: 'writer',
        title: i % 5 === 0 ? `alpha ${text}` : `Unit ${i % 11}`,
        type: pick(TYPES),
        domain: pick(DOMAINS),
        content: { description: text, examples: i % 3 === 0 ? ['gamma example'] : [] },
        metadata: { source: 'test', confidence: 0.5 },
        tags: [],
        quality_score: quality,
        validations: { valid: 0, invalid: 0 },
        created_at: at(Math.floor(i / 3)),
        updated_at: at(Math.floor(i / 3)),
      };
      await writer.contributeUnit(unit, quality, 200);
      // Verdicts move scores across buckets, deletions take units out: the counts must follow.
      if (i % 9 === 0) {
        await writer.recordVerdict({
          unitId: unit.id,
          agentId: 'judge',
          valid: i % 2 === 0,
          feedback: '',
          at: at(i),
          weight: 1,
          decide: decideVerdict,
        });
      }
      if (i % 13 === 0) await writer.deleteUnit(unit.id, at(i));
    }
    for (const [, readWorkers] of PLACES) stores.push(openSqliteStore(`sqlite:${file}`, { readWorkers }));
    plain = new Database(file, { readonly: true });
  });

  after(async () => {
    plain.close();
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The plain query: count and order over every unit the filters admit, no shortcut. */
  function expected(query: UnitSpec): { ids: string[]; total: number } {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (query.types.length > 0) {
      conditions.push(`ku.type IN (${query.types.map(() => '?').join(', ')})`);
      params.push(...query.types);
    }
    if (query.domain !== undefined) {
      conditions.push('ku.domain = ?');
      params.push(query.domain);
    }
    if (query.minQuality !== undefined) {
      conditions.push('ku.quality_score >= ?');
      params.push(query.minQuality);
    }
    const whereSql = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const total = plain
      .prepare(`SELECT count(*) FROM knowledge_units ku ${whereSql}`)
      .pluck()
      .get(...params) as number;
    const ids = plain
      .prepare(
        `SELECT ku.id FROM knowledge_units ku ${whereSql} ORDER BY ku.quality_score DESC, ku.created_at DESC, ku.id DESC LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(...params, query.limit, query.offset) as string[];
    return { ids, total };
  }

  it('the bucket counts agree with the units after inserts, verdicts and deletions', () => {
    const counted = plain.prepare('SELECT coalesce(sum(n), 0) FROM unit_counts').pluck().get();
    const units = plain.prepare('SELECT count(*) FROM knowledge_units').pluck().get();
    assert.equal(counted, units);
    const drift = plain
      .prepare(
        `SELECT c.domain, c.type, c.bucket, c.n, (SELECT count(*) FROM knowledge_units ku WHERE ku.domain = c.domain
           AND ku.type = c.type AND CAST(ku.quality_score * 100 AS INTEGER) = c.bucket) AS actual
         FROM unit_counts c WHERE n != actual`,
      )
      .all();
    assert.deepEqual(drift, []);
  });

  for (const [name] of PLACES) {
    it(`${name}: same totals and pages as the plain query`, async () => {
      const store = stores[PLACES.findIndex(([n]) => n === name) + 1]!;
      const random = rng(name.length);
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
      for (let round = 0; round < 400; round++) {
        const query: UnitSpec = {
          types: random() < 0.3 ? TYPES.filter(() => random() < 0.5) : [],
          limit: 1 + Math.floor(random() * 25),
          offset: random() < 0.3 ? 0 : Math.floor(random() * 220),
        };
        if (random() < 0.4) query.domain = pick(DOMAINS);
        const floor = random() < 0.5 ? pick(FLOORS) : undefined;
        if (floor !== undefined) query.minQuality = floor;
        const got = await store.listUnits(unitQuery(query));
        assert.deepEqual(
          { total: got.total, ids: got.items.map((u) => u.id) },
          expected(query),
          `query ${JSON.stringify(query)}`,
        );
      }
    });
  }
});
