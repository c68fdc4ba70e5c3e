// Proves the bulk path writes what the one-by-one path writes: the same corpus items go through
// contributeUnit/contributeSkill into one store and through the bulk import into another, and every table
// (and what the search index reads of them) must come out the same.
// The benchmarks load their corpora this way (PostgreSQL too when REG_TEST_DATABASE_URL is set).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Database } from 'better-sqlite3';
import pg from 'pg';
import {
  EXPORTER_ID,
  agentKey,
  contributorCount,
  contributorId,
  corpus,
  skillItem,
  unitItem,
} from '../../bench/corpus.js';
import { hashApiKey, keyPrefixOf } from '../../src/domain/keys.js';
import { REWARD_MILLIS } from '../../src/domain/reputation.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { skillQuery, unitQuery } from '../helpers/lists.js';

const UNITS = 1_200;
const SKILLS = 150;
const c = corpus();
const units = Array.from({ length: UNITS }, (_, i) => unitItem(c, i, UNITS));
const skills = Array.from({ length: SKILLS }, (_, i) => skillItem(c, i, UNITS));

async function createAgents(store: Store): Promise<void> {
  for (const agentId of [EXPORTER_ID, ...Array.from({ length: contributorCount(UNITS) }, (_, k) => contributorId(k))]) {
    const key = agentKey(c, agentId);
    await store.createAgentWithKey({
      agentId,
      keyHash: hashApiKey(key),
      keyPrefix: keyPrefixOf(key),
      scopes: ['read'],
      tier: 'free',
      createdAt: '2024-12-31T00:00:00.000Z',
    });
  }
}

async function oneByOne(store: Store): Promise<void> {
  await createAgents(store);
  for (const { unit, baseQuality } of units)
    await store.contributeUnit(unit, baseQuality, REWARD_MILLIS.contribute_knowledge);
  for (const { plan } of skills) await store.publishSkill(plan);
}

/** Same answers to lists, what the search index reads, and reputation, through the store's own reads. */
async function sameReads(a: Store, b: Store): Promise<void> {
  for (const domain of [undefined, ...new Set(units.slice(0, 40).map((u) => u.unit.domain))]) {
    for (const offset of [0, 20, 700]) {
      const query = unitQuery({ domain, minQuality: offset === 20 ? 0.5 : undefined, limit: 20, offset });
      assert.deepEqual(await b.listUnits(query), await a.listUnits(query), `units of ${domain} from ${offset}`);
      const skills = skillQuery({ domain, limit: 20, offset, viewer: { agentId: null, everything: true } });
      assert.deepEqual(await b.listSkills(skills), await a.listSkills(skills), `skills of ${domain} from ${offset}`);
    }
  }
  for (const kind of ['unit', 'skill'] as const) {
    assert.deepEqual(
      await b.searchItems(kind, 0, 5_000),
      await a.searchItems(kind, 0, 5_000),
      `${kind} items for the search index`,
    );
  }
  const tagged = skills[0]!.plan.version.tags.slice(0, 1);
  const byTag = skillQuery({ tags: tagged, limit: 50, offset: 0, viewer: { agentId: null, everything: true } });
  assert.deepEqual(await b.listSkills(byTag), await a.listSkills(byTag), 'skills by tag');
  for (const agent of [EXPORTER_ID, contributorId(3)]) {
    assert.deepEqual(await b.reputation(agent, 1_000), await a.reputation(agent, 1_000), `reputation of ${agent}`);
  }
}

const SQLITE_TABLES = [
  'SELECT * FROM agents ORDER BY agent_id',
  'SELECT * FROM knowledge_units ORDER BY seq',
  'SELECT * FROM skills ORDER BY seq',
  'SELECT * FROM skill_tags ORDER BY tag, skill_seq',
  'SELECT * FROM skill_versions ORDER BY seq',
  'SELECT * FROM skill_files ORDER BY version_seq, path',
  'SELECT * FROM reputation_events ORDER BY seq',
  'SELECT * FROM unit_counts ORDER BY domain, type, bucket',
  'SELECT * FROM search_changes ORDER BY seq',
];

async function verifySqlite(): Promise<void> {
  let db!: Database;
  let dbA!: Database;
  const a = openSqliteStore('sqlite::memory:', { onConnection: (connection) => (dbA = connection) });
  const b = openSqliteStore('sqlite::memory:', { onConnection: (connection) => (db = connection) });
  await oneByOne(a);
  await createAgents(b);
  for (let i = 0; i < units.length; i += 500)
    await b.importUnits(units.slice(i, i + 500), REWARD_MILLIS.contribute_knowledge);
  await b.importSkills(skills);
  // The rows are compared through the stores' own connections.
  for (const sql of SQLITE_TABLES) assert.deepEqual(db.prepare(sql).all(), dbA.prepare(sql).all(), sql);
  await sameReads(a, b);
  // Deleting bulk-imported units takes them out of the search index as it does for contributed ones.
  for (const i of [0, 7, 500, 1_199]) {
    assert.equal(await a.deleteUnit(units[i]!.unit.id, '2026-11-23T00:00:00.000Z'), true);
    assert.equal(await b.deleteUnit(units[i]!.unit.id, '2026-11-23T00:00:00.000Z'), true);
  }
  for (const sql of SQLITE_TABLES) assert.deepEqual(db.prepare(sql).all(), dbA.prepare(sql).all(), sql);
  await sameReads(a, b);
  // An unknown agent aborts the whole batch.
  const stranger = { ...units[0]!, unit: { ...units[0]!.unit, id: 'ku_new', agent_id: 'nobody' } };
  const before = db.prepare('SELECT count(*) FROM knowledge_units').pluck().get();
  await assert.rejects(b.importUnits([{ ...units[1]!, unit: { ...units[1]!.unit, id: 'ku_new2' } }, stranger], 200));
  assert.equal(db.prepare('SELECT count(*) FROM knowledge_units').pluck().get(), before);
  await a.close();
  await b.close();
}

async function verifyPostgres(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const schemas = [0, 1].map(() => `reg_verify_${randomBytes(6).toString('hex')}`);
  try {
    for (const s of schemas) await admin.query(`CREATE SCHEMA ${s}`);
    const a = await openPostgresStore(url, { schema: schemas[0]! });
    const b = await openPostgresStore(url, { schema: schemas[1]! });
    await oneByOne(a);
    await createAgents(b);
    for (let i = 0; i < units.length; i += 500)
      await b.importUnits(units.slice(i, i + 500), REWARD_MILLIS.contribute_knowledge);
    await b.importSkills(skills);
    for (const table of [
      'agents ORDER BY agent_id',
      'knowledge_units ORDER BY seq',
      'skills ORDER BY seq',
      'skill_tags ORDER BY tag, skill_seq',
      'reputation_events ORDER BY seq',
    ]) {
      const [ra, rb] = await Promise.all(schemas.map((s) => admin.query(`SELECT * FROM ${s}.${table}`)));
      assert.deepEqual(rb!.rows, ra!.rows, table);
    }
    await sameReads(a, b);
    await assert.rejects(
      b.importUnits([{ ...units[0]!, unit: { ...units[0]!.unit, id: 'ku_new', agent_id: 'nobody' } }], 200),
    );
    await a.close();
    await b.close();
  } finally {
    for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await admin.end();
  }
}

describe('the bulk import writes what one contribution at a time writes', () => {
  it(`on SQLite: ${UNITS} units and ${SKILLS} skills, every table, search, lists and reputation`, verifySqlite);
  const url = process.env.REG_TEST_DATABASE_URL?.trim();
  it(
    `on PostgreSQL: ${UNITS} units and ${SKILLS} skills`,
    { skip: url ? false : 'REG_TEST_DATABASE_URL is not set: the PostgreSQL bulk import is not checked' },
    () => verifyPostgres(url!),
  );
});
