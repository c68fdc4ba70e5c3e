// Group commit on PostgreSQL: writes of one instance that arrive together share one transaction, each in
// its own savepoint; one that fails fails alone; a group whose connection breaks is written again write by
// write; what was acknowledged survives the connection's end; a write's savepoint travels with its first
// statement; and two instances whose groups cross each other's row locks answer every write, retrying the
// deadlock's victim.
import assert from 'node:assert/strict';
import { createServer, Socket, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { createPool } from '../../src/store/postgres/connection.js';
import { GroupCommit, Sent } from '../../src/store/postgres/group-commit.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import {
  IdempotencyKeyTakenError,
  QuotaExceededError,
  StoreUnavailableError,
  type IdempotentResponse,
  type Store,
} from '../../src/store/store.js';
import { decideVerdict } from '../../src/domain/verdicts.js';
import { unitQuality } from '../../src/domain/quality.js';
import { adminQuery, dropSchema, faultyLink, freshSchema, postgresUrl } from '../helpers/backends.js';
import { call, contributeUnit, register, testApp, unitBody } from '../helpers/app.js';
import { agentKey } from '../helpers/keys.js';
import { unitRecord } from '../helpers/records.js';

const url = postgresUrl();
const skip = url ? false : 'REG_TEST_DATABASE_URL is not set: the PostgreSQL group commit is not tested';
const at = (n: number) => new Date(Date.UTC(2026, 10, 24, 10, 0, 0, n)).toISOString();
let counter = 0;

const unit = (agentId: string) => unitRecord(agentId, 'grp');

/**
 * A TCP proxy in front of PostgreSQL that counts round trips per connection: each time the client sends
 * after having heard from the server (its first bytes count as one too).
 */
async function countingLink(targetUrl: string) {
  const target = new URL(targetUrl);
  const turns: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = new Socket();
    const at = turns.push(0) - 1;
    let heard = true;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => (socket === client ? upstream : client).destroy());
    }
    upstream.connect(Number(target.port || 5432), target.hostname);
    client.on('data', (data) => {
      if (heard) turns[at]! += 1;
      heard = false;
      upstream.write(data);
    });
    upstream.on('data', (data) => {
      heard = true;
      client.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    /** Round trips per connection opened through the link, since the last reset. */
    counts: () => [...turns],
    reset: () => turns.fill(0),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('PostgreSQL group commit', { skip }, () => {
  let schema: string;
  let pool: Pool;
  /** The groups' connection, pipelined as the store's is. */
  let groups: Pool;

  before(async () => {
    schema = await freshSchema(url!);
    await adminQuery(url!, `CREATE TABLE ${schema}.written (n int PRIMARY KEY)`);
    pool = createPool(url!, { schema });
    groups = createPool(url!, { schema, max: 1 }, true);
  });
  after(async () => {
    await pool?.end();
    await groups?.end();
    await dropSchema(url!, schema);
  });

  const rows = async () =>
    (await pool.query<{ n: number }>('SELECT n FROM written ORDER BY n')).rows.map((row) => row.n);
  /** A write of `n` that answers the transaction it ran in. */
  const insert = (n: number) => async (client: { query: Pool['query'] }) =>
    (await client.query<{ xact: string }>('INSERT INTO written (n) VALUES ($1) RETURNING txid_current() AS xact', [n]))
      .rows[0]!.xact;

  it('writes that arrive together share one transaction; one that fails rolls back alone', async () => {
    await pool.query('TRUNCATE written');
    const group = new GroupCommit(pool, groups);
    const outcomes = await Promise.allSettled([
      group.write(insert(1)),
      group.write(insert(2)),
      group.write(insert(1)), // a unique violation
      group.write(async (client) => {
        await insert(9)(client);
        throw new Error('refused after writing');
      }),
      group.write(insert(3)),
    ]);
    const landed = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
    assert.equal(landed.length, 3);
    assert.equal(new Set(landed).size, 1, 'one transaction for the group');
    assert.equal(outcomes[2]!.status, 'rejected');
    assert.equal((outcomes[2] as PromiseRejectedResult).reason.code, '23505', 'the failing write hears its own error');
    assert.equal((outcomes[3] as PromiseRejectedResult).reason.message, 'refused after writing');
    assert.deepEqual(await rows(), [1, 2, 3], 'what the failed writes wrote is rolled back, the rest is kept');
  });

  it('a group whose connection breaks is written again write by write; only the breaking write fails', async () => {
    await pool.query('TRUNCATE written');
    const group = new GroupCommit(pool, groups);
    const outcomes = await Promise.allSettled([
      group.write(insert(1)),
      group.write(async (client) => {
        await client.query('SELECT pg_terminate_backend(pg_backend_pid())');
      }),
      group.write(insert(2)),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof StoreUnavailableError);
    assert.notEqual(
      (outcomes[0] as PromiseFulfilledResult<string>).value,
      (outcomes[2] as PromiseFulfilledResult<string>).value,
      'the writes of the broken group ran again, each in a transaction of its own',
    );
    assert.deepEqual(await rows(), [1, 2]);
  });

  it("a write held up by another transaction's lock steps aside, so the rest of its group commits", async () => {
    await pool.query('TRUNCATE written');
    await pool.query('INSERT INTO written (n) VALUES (100)');
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT n FROM written WHERE n = 100 FOR UPDATE');
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await holder.query('COMMIT');
      holder.release();
    };
    try {
      const group = new GroupCommit(pool, groups);
      const blocked = group.write(async (client) => {
        await client.query('UPDATE written SET n = 101 WHERE n = 100');
      });
      let freeLandedWhileHeld = false;
      const free = group.write(insert(5)).then(() => {
        freeLandedWhileHeld = !released;
      });
      // The lock is given up once the free write has landed (or after a while, so a failure cannot hang).
      await Promise.race([free, new Promise((resolve) => setTimeout(resolve, 8_000))]);
      await release();
      await Promise.all([free, blocked]);
      assert.ok(freeLandedWhileHeld, 'the write that needs no locked row must not wait for the lock');
      assert.deepEqual(await rows(), [5, 101], 'the held-up write ran again once the row was free');
    } finally {
      await release();
    }
  });

  it("sends each write's savepoint with its first statement: a group of n one-statement writes is n + 1 round trips", async () => {
    await pool.query('TRUNCATE written');
    const link = await countingLink(url!);
    const linked = createPool(link.url, { schema, max: 1 }, true);
    try {
      const group = new GroupCommit(pool, linked);
      await group.write(insert(0)); // the connection opened
      link.reset();
      const writes = [1, 2, 3, 4, 5].map((n) => group.write(insert(n)));
      assert.equal(new Set(await Promise.all(writes)).size, 1, 'one group');
      // BEGIN and the first savepoint with the first write, each further savepoint with its write, the COMMIT.
      assert.deepEqual(link.counts(), [writes.length + 1]);
      assert.deepEqual(await rows(), [0, 1, 2, 3, 4, 5]);
    } finally {
      await linked.end();
      await link.close();
    }
  });

  /** A write that reads, then leaves its last statement (an insert of `n`) unanswered for the group. */
  const readThenInsert = (n: number) => async (client: { query: Pool['query'] }) => {
    const { xact } = (await client.query<{ xact: string }>('SELECT txid_current() AS xact')).rows[0]!;
    return new Sent(xact, client.query('INSERT INTO written (n) VALUES ($1)', [n]));
  };

  it("sends the next write behind a write's unanswered last statement: n two-statement writes in n + 2 round trips", async () => {
    await pool.query('TRUNCATE written');
    const link = await countingLink(url!);
    const linked = createPool(link.url, { schema, max: 1 }, true);
    try {
      const group = new GroupCommit(pool, linked);
      await group.write(insert(0));
      link.reset();
      const writes = [1, 2, 3, 4, 5].map((n) => group.write(readThenInsert(n)));
      assert.equal(new Set(await Promise.all(writes)).size, 1, 'one group');
      // The first read; each insert with the next savepoint and read; the last insert; the COMMIT.
      assert.deepEqual(link.counts(), [writes.length + 2]);
      assert.deepEqual(await rows(), [0, 1, 2, 3, 4, 5]);
    } finally {
      await linked.end();
      await link.close();
    }
  });

  it('an unanswered last statement that fails fails its write alone, the next write runs again after it', async () => {
    await pool.query('TRUNCATE written');
    const group = new GroupCommit(pool, groups);
    const outcomes = await Promise.allSettled([
      group.write(readThenInsert(1)),
      group.write(readThenInsert(1)), // a unique violation, found while the next write is already sent
      group.write(readThenInsert(2)),
      group.write(readThenInsert(2)), // the same, as the group's last write
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected'],
    );
    for (const i of [1, 3]) assert.equal((outcomes[i] as PromiseRejectedResult).reason.code, '23505');
    assert.deepEqual(await rows(), [1, 2]);
  });

  it('verdicts on one unit in one group: one round trip each, every count kept, an idempotency key taken once', async () => {
    const link = await countingLink(url!);
    const own = await freshSchema(url!);
    const store = await openPostgresStore(link.url, { schema: own });
    try {
      const validators = ['alba', 'brio', 'cato', 'dora', 'emil'];
      for (const agentId of ['judged', ...validators]) await store.createAgentWithKey(agentKey(agentId, at(++counter)));
      const u = unit('judged');
      await store.contributeUnit(u, 0.5, 1000);
      const verdict = (agentId: string, valid: boolean) => ({
        unitId: u.id,
        agentId,
        valid,
        feedback: '',
        at: at(++counter),
        weight: 1,
        decide: decideVerdict,
      });
      link.reset();
      await Promise.all(validators.map((agentId, i) => store.recordVerdict(verdict(agentId, i % 2 === 0))));
      // The first savepoint and read; each verdict's write with the next one's savepoint and read; the last
      // write; the COMMIT (the store's other connections carry nothing here but the counts' folding).
      assert.equal(Math.max(...link.counts()), validators.length + 2);
      assert.deepEqual((await store.getUnit(u.id))?.validations, { valid: 3, invalid: 2 });
      assert.equal((await store.getUnit(u.id))?.quality_score, unitQuality(0.5, 3, 2));

      // Two new verdicts with one idempotency key in one group: the second fails alone, after the first was sent.
      const response: IdempotentResponse = {
        scope: 'alba',
        keyHash: 'h'.repeat(64),
        requestHash: 'r'.repeat(64),
        status: 200,
        body: 'sealed',
        createdAt: at(++counter),
        expiredBefore: at(0),
      };
      const second = unit('judged');
      await store.contributeUnit(second, 0.5, 1000);
      const outcomes = await Promise.allSettled([
        store.recordVerdict({ ...verdict('alba', true), unitId: second.id }, response),
        store.recordVerdict({ ...verdict('brio', true), unitId: second.id }, response),
        store.recordVerdict({ ...verdict('cato', false), unitId: second.id }),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof IdempotencyKeyTakenError);
      assert.deepEqual((await store.getUnit(second.id))?.validations, { valid: 1, invalid: 1 });
      const scores = await Promise.all(validators.map(async (id) => (await store.reputation(id, 0))?.validations));
      assert.deepEqual(scores, [2, 1, 2, 1, 1], 'the refused verdict rewarded nobody');
    } finally {
      await store.close();
      await link.close();
      await dropSchema(url!, own);
    }
  });

  it('keeps what it acknowledged when the connection ends right after the COMMIT', async () => {
    const link = await faultyLink(url!);
    const store = await openPostgresStore(link.url, { schema });
    try {
      await store.createAgentWithKey(agentKey('survivor', at(0)));
      const units = Array.from({ length: 20 }, () => unit('survivor'));
      await Promise.all(units.map((u) => store.contributeUnit(u, 0.5, 1000)));
      await link.set('refuse'); // every connection of the instance cut at once, as when its host dies
      const kept = await adminQuery<{ id: string }>(url!, `SELECT id FROM ${schema}.knowledge_units`);
      assert.deepEqual(kept.map((row) => row.id).sort(), units.map((u) => u.id).sort());
      const [agent] = await adminQuery<{ unit_count: number; contributions: number }>(
        url!,
        `SELECT unit_count, contributions FROM ${schema}.agents WHERE agent_id = 'survivor'`,
      );
      assert.deepEqual(agent, { unit_count: 20, contributions: 20 });
    } finally {
      await link.set('pass');
      await store.close();
      await link.close();
    }
  });
});

describe('PostgreSQL group commit across instances', { skip }, () => {
  let schema: string;
  let stores: Store[] = [];

  before(async () => {
    schema = await freshSchema(url!);
    stores = [await openPostgresStore(url!, { schema }), await openPostgresStore(url!, { schema })];
  });
  after(async () => {
    for (const store of stores) await store.close();
    await dropSchema(url!, schema);
  });

  it('groups of two instances that lock the same rows in opposite orders answer every write', async () => {
    // Two apps, as two instances behind a load balancer, each writing through its own store.
    const apps = await Promise.all(stores.map((store) => testApp(store)));
    const keys = {
      left: await register(apps[0]!.app, 'left-agent'),
      right: await register(apps[0]!.app, 'right-agent'),
    };
    const seeds = {
      left: await contributeUnit(apps[0]!.app, keys.left, { title: 'Left seed' }),
      right: await contributeUnit(apps[0]!.app, keys.right, { title: 'Right seed' }),
    };
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      // One instance's group locks "left" then "right", the other's "right" then "left".
      const writes = (app: FastifyInstance, first: 'left' | 'right', second: 'left' | 'right') => [
        call(app, 'POST', '/v1/knowledge', { key: keys[first], body: unitBody({ title: `${first} ${round}` }) }),
        call(app, 'POST', `/v1/knowledge/${seeds[second].id}/validate`, { key: keys[first], body: { valid: true } }),
        call(app, 'POST', '/v1/knowledge', { key: keys[second], body: unitBody({ title: `${second} ${round}` }) }),
        call(app, 'POST', `/v1/knowledge/${seeds[first].id}/validate`, { key: keys[second], body: { valid: true } }),
      ];
      const answers = await Promise.all([
        ...writes(apps[0]!.app, 'left', 'right'),
        ...writes(apps[1]!.app, 'right', 'left'),
      ]);
      statuses.push(...answers.map((answer) => answer.statusCode));
    }
    assert.deepEqual(
      statuses.filter((status) => status >= 300),
      [],
      'a deadlock between groups is retried, never answered',
    );
    const [counts] = await adminQuery<{ units: string; contributions: string; events: string; score: string }>(
      url!,
      `SELECT (SELECT count(*) FROM ${schema}.knowledge_units) AS units,
              (SELECT sum(contributions) FROM ${schema}.agents) AS contributions,
              (SELECT sum(delta_millis) FROM ${schema}.reputation_events) AS events,
              (SELECT sum(score_millis) FROM ${schema}.agents) AS score`,
    );
    assert.equal(Number(counts!.units), 2 + 6 * 4);
    assert.equal(Number(counts!.contributions), 2 + 6 * 4);
    assert.equal(counts!.events, counts!.score, "every history item moved its agent's score once");
    for (const { app } of apps) await app.close();
  });

  it('a contribution over the quota fails alone; the others of its group land', async () => {
    await stores[0]!.createAgentWithKey(agentKey('quoted', at(++counter)));
    const quota = { units: 3, skills: null, bytes: null };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => stores[0]!.contributeUnit(unit('quoted'), 0.5, 1000, undefined, quota)),
    );
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 3);
    for (const o of outcomes)
      if (o.status === 'rejected') assert.ok(o.reason instanceof QuotaExceededError, String(o.reason));
  });
});
