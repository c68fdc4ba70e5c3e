// PostgreSQL unit lists take their totals from bucket counts (unit_counts, plus the changes that writes
// appended and no fold has taken yet), counting row by row only the bucket that min_quality cuts through.
// Every total must be what counting the rows gives, whether the changes are folded or not, after inserts,
// bulk imports, verdicts that move scores across buckets, and deletions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { KnowledgeUnit, UnitType } from '../../src/domain/model.js';
import { decideVerdict } from '../../src/domain/verdicts.js';
import { foldUnitCounts, vacuumUnitCounts } from '../../src/store/postgres/unit-counts.js';
import { openPostgres, postgresUrl } from '../helpers/backends.js';
import { agentKey } from '../helpers/keys.js';
import { unitQuery, type UnitFilters } from '../helpers/lists.js';

type UnitSpec = UnitFilters & { types: string[]; limit: number; offset: number };

const url = postgresUrl();
// Scores on both sides of bucket edges, including ones whose × 100 is not exact in binary (0.29, 0.57).
const QUALITIES = [0, 0.1, 0.29, 0.2999, 0.3, 0.5, 0.5001, 0.57, 0.58, 0.7, 0.99, 1];
const DOMAINS = ['web', 'data', 'ops'];
const TYPES: UnitType[] = ['pattern', 'fact', 'pitfall'];
const FLOORS = [undefined, 0, 0.28, 0.29, 0.2999, 0.3, 0.5, 0.5001, 0.56, 0.57, 0.58, 0.999, 1, 0.123];

const at = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, 0) + n * 1000).toISOString();

function unit(i: number): KnowledgeUnit {
  return {
    id: `ku_total_${i}`,
    agent_id: 'writer',
    title: `Unit ${i}`,
    type: TYPES[(i * 7) % TYPES.length]!,
    domain: DOMAINS[(i * 5) % DOMAINS.length]!,
    content: { description: `unit ${i}`, examples: [] },
    metadata: { source: 'test', confidence: 0.5 },
    tags: [],
    quality_score: QUALITIES[(i * 11) % QUALITIES.length]!,
    validations: { valid: 0, invalid: 0 },
    created_at: at(i),
    updated_at: at(i),
  };
}

describe(
  'PostgreSQL unit totals from bucket counts',
  { skip: url ? false : 'set REG_TEST_DATABASE_URL to run it' },
  () => {
    let store: Awaited<ReturnType<typeof openPostgres>>;
    let client: pg.Pool;

    before(async () => {
      store = await openPostgres(url!);
      client = new pg.Pool({ connectionString: url, options: `-c search_path=${store.schema}`, max: 1 });
      for (const agent of ['writer', 'judge']) {
        await store.createAgentWithKey(agentKey(agent, at(0)));
      }
    });
    after(async () => {
      await client.end();
      await store.close();
    });

    /** The plain count over every unit the filters admit. */
    async function counted(query: UnitSpec): Promise<number> {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM knowledge_units WHERE ($1::text[] IS NULL OR type = ANY($1)) AND ($2::text IS NULL OR domain = $2)
         AND ($3::float8 IS NULL OR quality_score >= $3)`,
        [query.types.length > 0 ? query.types : null, query.domain ?? null, query.minQuality ?? null],
      );
      return Number(rows[0]!.n);
    }

    async function assertTotals(when: string): Promise<void> {
      let checked = 0;
      for (const domain of [undefined, ...DOMAINS]) {
        for (const types of [[], ['fact'], ['pattern', 'pitfall']] as UnitType[][]) {
          for (const minQuality of FLOORS) {
            const query: UnitSpec = {
              types,
              limit: 5,
              offset: 0,
              ...(domain ? { domain } : {}),
              ...(minQuality === undefined ? {} : { minQuality }),
            };
            const page = await store.listUnits(unitQuery(query));
            assert.equal(page.total, await counted(query), `${when}: ${JSON.stringify(query)}`);
            checked++;
          }
        }
      }
      assert.ok(checked > 100);
    }

    it('are exact after contributions, bulk imports, verdicts and deletions, folded or not', async () => {
      for (let i = 0; i < 60; i++) await store.contributeUnit(unit(i), unit(i).quality_score, 200);
      await store.importUnits(
        Array.from({ length: 90 }, (_, k) => ({ unit: unit(100 + k), baseQuality: unit(100 + k).quality_score })),
        200,
      );
      await assertTotals('nothing folded');
      await foldUnitCounts(client);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM unit_count_changes');
      assert.equal(rows[0]!.n, '0', 'a fold takes every change');
      await assertTotals('folded');
      for (let i = 0; i < 60; i += 3) {
        await store.recordVerdict({
          unitId: unit(i).id,
          agentId: 'judge',
          valid: i % 2 === 0,
          feedback: '',
          at: at(500 + i),
          weight: 1,
          decide: decideVerdict,
        });
      }
      for (let i = 100; i < 190; i += 7) await store.deleteUnit(unit(i).id, at(700 + i));
      await assertTotals('moved and deleted, not folded');
      await foldUnitCounts(client);
      await foldUnitCounts(client);
      await assertTotals('folded again');
      const drift = await client.query(
        `SELECT c.domain, c.type, c.bucket, c.n, (SELECT count(*) FROM knowledge_units ku WHERE ku.domain = c.domain AND ku.type = c.type
         AND floor(ku.quality_score * 100)::integer = c.bucket) AS actual FROM unit_counts c WHERE c.n <> (SELECT count(*) FROM knowledge_units ku
         WHERE ku.domain = c.domain AND ku.type = c.type AND floor(ku.quality_score * 100)::integer = c.bucket)`,
      );
      assert.deepEqual(drift.rows, []);
    });

    it('vacuums the count tables once their dead rows pile up, and the totals stay exact', async () => {
      // Changes of zero units: folded, they leave every count as it was, and 20,000 dead rows behind.
      await client.query(
        "INSERT INTO unit_count_changes (domain, type, bucket, n) SELECT 'web', 'fact', 50, 0 FROM generate_series(1, 20000)",
      );
      await foldUnitCounts(client);
      const pages = async () => {
        const { rows } = await client.query<{ n: string }>("SELECT pg_relation_size('unit_count_changes') / 8192 AS n");
        return Number(rows[0]!.n);
      };
      const bloated = await pages();
      assert.ok(bloated > 50, `${bloated} pages of dead rows`);
      assert.deepEqual(await vacuumUnitCounts(client, Number.MAX_SAFE_INTEGER), [], 'below the bound: left alone');
      assert.equal(await pages(), bloated);
      assert.deepEqual(await vacuumUnitCounts(client, 0), ['unit_count_changes', 'unit_counts']);
      assert.equal(await pages(), 0, 'the empty pages are given back');
      await assertTotals('vacuumed');
    });
  },
);
