// What only the PostgreSQL store has to get right: instances of different versions side by side, an
// outage of the database, a migration lock that is never released, and one snapshot per list.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { newSkillPlan } from '../../src/service/skill-publish.js';
import { MIGRATION_LOCK_KEY } from '../../src/store/postgres/connection.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { PublishRaceError, StoreUnavailableError, type Store } from '../../src/store/store.js';
import {
  adminQuery,
  dropSchema,
  faultyLink,
  freshSchema,
  openPostgres,
  postgresUrl,
  type FaultyLink,
} from '../helpers/backends.js';
import { unitRecord } from '../helpers/records.js';
import { unitQuery } from '../helpers/lists.js';

const url = postgresUrl();
const skip = url ? false : 'REG_TEST_DATABASE_URL is not set';
const at = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, n)).toISOString();
let counter = 0;

function key(agentId: string) {
  counter++;
  return {
    agentId,
    keyHash: `pg${counter}`.padStart(64, '0'),
    keyPrefix: `reg_p${String(counter).padStart(3, '0')}`,
    scopes: ['read' as const, 'write' as const],
    tier: 'free' as const,
    createdAt: at(counter),
  };
}

const unit = (agentId: string) => unitRecord(agentId, 'pg');

/** Resolves to the error and how long the call took; fails if it resolves instead. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await call();
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('expected the call to fail');
}

describe('PostgreSQL store', { skip }, () => {
  it('keeps serving after a newer instance adds columns to every table (rolling upgrade)', async () => {
    // One connection, so every statement below is prepared on it before the columns change.
    const store = await openPostgres(url!, { max: 1 });
    try {
      const response = {
        scope: 'upgrader',
        keyHash: 'u'.repeat(64),
        requestHash: 'r'.repeat(64),
        status: 201,
        body: 'sealed',
        createdAt: at(1),
        expiredBefore: at(0),
      };
      const k = key('upgrader');
      await store.createAgentWithKey(k);
      const u = unit('upgrader');
      await store.contributeUnit(u, 0.5, 200, response);
      const reads = async () => [
        await store.findKeyByHash(k.keyHash),
        await store.findActiveKeyByPrefix(k.keyPrefix),
        await store.getUnit(u.id),
        await store.findIdempotentResponse('upgrader', 'u'.repeat(64), at(0)),
        await store.reputation('upgrader', 5),
        await store.listUnits(unitQuery({ types: [], limit: 5, offset: 0 })),
        await store.getSkill('sk_none'),
      ];
      const before = await reads();
      for (const table of [
        'agents',
        'api_keys',
        'knowledge_units',
        'verdicts',
        'skills',
        'reputation_events',
        'idempotency_keys',
      ]) {
        await adminQuery(url!, `ALTER TABLE ${store.schema}.${table} ADD COLUMN added_later text DEFAULT 'new'`);
      }
      assert.deepEqual(await reads(), before);
    } finally {
      await store.close();
    }
  });

  it('keeps the total in agreement with the items while other writers insert', async () => {
    const store = await openPostgres(url!);
    const writer = await openPostgresStore(url!, { schema: store.schema });
    await store.createAgentWithKey(key('snapshot'));
    let writing = true;
    let written = 0;
    const writes = (async () => {
      try {
        while (writing) {
          await writer.contributeUnit(unit('snapshot'), 0.5, 200);
          written++;
        }
      } finally {
        writing = false; // a failed write ends the lists too; `await writes` below reports it
      }
    })();
    try {
      // At least 150 lists, and on until the writer has written 20 times between them: however a busy
      // machine shares its time between the two, the lists have raced real inserts.
      for (let i = 0; i < 150 || (written < 20 && writing); i++) {
        const page = await store.listUnits(unitQuery({ types: [], limit: 100, offset: 0 }));
        assert.equal(
          page.items.length,
          Math.min(page.total, 100),
          `list ${i}: ${page.items.length} items, total ${page.total}`,
        );
      }
    } finally {
      writing = false;
      await writes;
      await writer.close();
      await store.close();
    }
  });

  it('answers concurrent publications and deletions of one skill without a deadlock reaching the caller', async () => {
    const store = await openPostgres(url!);
    try {
      await store.createAgentWithKey(key('racer'));
      const plan = (round: number, kind: 'create' | 'version', version: string, skillId: string) => ({
        ...newSkillPlan({
          skill_md_content: `---\nname: raced-${round}\ndescription: Raced ${round}.\nmetadata:\n  version: "${version}"\n---\nBody ${round} ${version}.\n`,
          visibility: 'public',
          skillId,
          agentId: 'racer',
          at: at(round),
        }),
        kind,
      });
      const unavailable: unknown[] = [];
      // As the service writes them: within the publisher's storage quota, read and held inside the write.
      const quota = { units: null, skills: 1_000, bytes: null };
      for (let round = 0; round < 40; round++) {
        const id = `sk_race_${round}`;
        await store.publishSkill(plan(round, 'create', '1.0.0', id));
        const outcomes = await Promise.allSettled([
          store.publishSkill(plan(round, 'version', '1.1.0', id), undefined, quota),
          store.deleteSkill(id, at(round)),
          store.publishSkill(plan(round, 'create', '1.0.0', `sk_race_${round}_again`), undefined, quota),
          store.publishSkill(plan(round, 'version', '1.2.0', id), undefined, quota),
        ]);
        for (const o of outcomes)
          if (o.status === 'rejected' && !(o.reason instanceof PublishRaceError)) unavailable.push(o.reason);
      }
      assert.deepEqual(
        unavailable.map(String),
        [],
        'a deadlock is retried inside the store, never answered as an outage (a lost race is planned again)',
      );
    } finally {
      await store.close();
    }
  });

  it('gives up waiting for a migration lock that is never released, naming its holder', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const schema = await freshSchema(url!);
    const warnings: string[] = [];
    try {
      const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_advisory_lock($1)', [
        MIGRATION_LOCK_KEY,
      ]);
      const { error, ms } = await failure(() =>
        openPostgresStore(url!, {
          schema,
          timeouts: { migrationLockMs: 1_000 },
          log: { warn: (_d, m) => warnings.push(m) },
        }),
      );
      assert.match(
        String((error as Error).message),
        new RegExp(
          `^gave up after 1 s waiting for the migration lock, held by PostgreSQL backend pid ${rows[0]!.pid}: `,
        ),
      );
      assert.ok(ms >= 1_000 && ms < 3_000, `gave up after ${ms} ms`);
      assert.equal(warnings[0], 'waiting for another instance to finish migrating');
    } finally {
      await holder.end();
      await dropSchema(url!, schema);
    }
  });

  describe('when the database goes away', () => {
    let link: FaultyLink;
    let store: Store;
    const warnings: string[] = [];
    const timeouts = { connectMs: 500, statementMs: 500 };
    before(async () => {
      link = await faultyLink(url!);
      store = await openPostgres(url!, { timeouts, log: { warn: (_d, m) => warnings.push(m) } }, link.url);
      await store.createAgentWithKey(key('outage'));
    });
    after(async () => {
      await link.set('pass');
      await store.close();
      await link.close();
    });

    const calls: [string, () => Promise<unknown>][] = [
      ['ping', () => store.ping()],
      ['a read', () => store.findKeyByHash('0'.repeat(64))],
      ['a list', () => store.listUnits(unitQuery({ types: [], limit: 5, offset: 0 }))],
      ['a write', () => store.contributeUnit(unit('outage'), 0.5, 200)],
    ];

    it('fails every call at once with StoreUnavailableError when connections are refused, then recovers', async () => {
      await store.ping();
      await link.set('refuse');
      const idleBroke = 'an idle PostgreSQL connection broke; it is replaced on next use';
      for (let waited = 0; !warnings.includes(idleBroke) && waited < 2_000; waited += 20) await sleep(20);
      assert.ok(warnings.includes(idleBroke), 'the broken idle connection is logged');
      for (const [name, call] of calls) {
        const { error, ms } = await failure(call);
        assert.ok(error instanceof StoreUnavailableError, `${name}: ${String(error)}`);
        assert.ok(ms < 1_000, `${name} took ${ms} ms`);
      }
      await link.set('pass');
      for (const [, call] of calls) await call();
    });

    it('fails every call within the timeouts when the server accepts but never answers, then recovers', async () => {
      await Promise.all(calls.map(([, call]) => call())); // several idle connections that will now hang
      await link.set('silent');
      const results = await Promise.all(calls.map(([, call]) => failure(call)));
      results.forEach(({ error, ms }, i) => {
        assert.ok(error instanceof StoreUnavailableError, `${calls[i]![0]}: ${String(error)}`);
        // statement timeout + the client's grace for a silent server, plus scheduling slack
        assert.ok(ms < timeouts.statementMs + 2_000 + 1_500, `${calls[i]![0]} took ${ms} ms`);
      });
      const fresh = await failure(() => store.ping());
      assert.ok(fresh.error instanceof StoreUnavailableError);
      await link.set('pass');
      for (const [, call] of calls) await call();
    });

    it('refuses to start, saying why, when nothing listens', async () => {
      await link.set('refuse');
      const { error, ms } = await failure(() => openPostgresStore(link.url, { timeouts }));
      assert.ok(error instanceof StoreUnavailableError, String(error));
      assert.match((error as Error).message, /^PostgreSQL is unavailable: .*ECONNREFUSED/);
      assert.ok(ms < 1_000, `took ${ms} ms`);
    });
  });
});
