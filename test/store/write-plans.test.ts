// The statements a write runs find their rows through an index, so that a write costs the same in a
// registry of ten units or of millions. On SQLite every statement the service prepares while it
// contributes, validates, publishes, yanks and deletes is planned again with EXPLAIN QUERY PLAN, and no
// plan may read a whole table. On PostgreSQL, the statement that finds a publisher's skill by name is
// planned as a prepared statement is after a few runs (a generic plan, blind to its parameters).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from 'better-sqlite3';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { skillReads } from '../../src/store/reads/skills.js';
import { postgresDecode } from '../../src/store/rows.js';
import { render, type Db, type Sql } from '../../src/store/sql.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeSkill, contributeUnit, register, skillMd, testApp, type TestApp } from '../helpers/app.js';
import { dropSchema, freshSchema, postgresUrl } from '../helpers/backends.js';

/** What the service does to its data, through the API, once each. */
async function everyWrite(t: TestApp): Promise<void> {
  const key = await register(t.app, 'writer');
  const judge = await register(t.app, 'judge', ['read']);
  const unit = await contributeUnit(t.app, key);
  const judged = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, {
    key: judge,
    body: { valid: true, feedback: 'checked' },
  });
  assert.equal(judged.statusCode, 200, judged.body);
  const skill = await contributeSkill(t.app, key, { metadata: '\n  tags: pdf, text' });
  const next = await call(t.app, 'POST', '/v1/skills', {
    key,
    body: {
      skill_md_content: skillMd({ metadata: '\n  version: 1.1.0\n  tags: pdf' }, '# Usage\n\nAnother way.\n'),
      visibility: 'public',
    },
  });
  assert.equal(next.statusCode, 201, next.body);
  for (const [method, path] of [
    ['POST', `/v1/skills/${skill.id}/versions/1.1.0/yank`],
    ['DELETE', `/v1/knowledge/${unit.id}`],
    ['DELETE', `/v1/skills/${skill.id}`],
  ] as const) {
    const res = await call(t.app, method, path, { key });
    assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${res.body}`);
  }
}

const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b/i;

describe('SQLite: no statement of a write reads a whole table', () => {
  const statements = new Set<string>();
  let connection: Database;
  let t: TestApp;

  before(async () => {
    const store = openSqliteStore('sqlite::memory:', {
      onConnection: (db) => {
        connection = db;
        const prepare = db.prepare.bind(db);
        db.prepare = ((source: string) => {
          statements.add(source);
          return prepare(source);
        }) as typeof db.prepare;
      },
    });
    t = await testApp(store);
    statements.clear(); // the migrations' and start-up's statements are not a write's
    await everyWrite(t);
  });
  after(() => t.close());

  it('plans every statement the writes ran as a search through an index', () => {
    const scans: string[] = [];
    const ran = [...statements]; // planning prepares statements of its own
    for (const source of ran) {
      if (CONTROL.test(source)) continue;
      const parameters = new Array<null>((source.match(/\?/g) ?? []).length).fill(null);
      const plan = connection.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...parameters) as { detail: string }[];
      for (const { detail } of plan)
        if (/^SCAN (?!CONSTANT ROW)/.test(detail))
          scans.push(`${detail}  ←  ${source.replace(/\s+/g, ' ').slice(0, 120)}`);
    }
    assert.ok(ran.length > 20, `the writes ran ${ran.length} statements`);
    assert.deepEqual(scans, []);
  });

  it("finds a publisher's skill by name through the identity index, not among all the publisher's skills", () => {
    const byName = [...statements].find((s) => /FROM skills WHERE agent_id = \? AND name = \?/.test(s));
    assert.ok(byName, 'a publication looks its skill up by name');
    const plan = connection.prepare(`EXPLAIN QUERY PLAN ${byName}`).all(null, null) as { detail: string }[];
    assert.match(plan.map((p) => p.detail).join('\n'), /USING INDEX skills_identity \(agent_id=\? AND name=\?\)/);
  });
});

const url = postgresUrl();

/** The text of the query that finds a publisher's skill by name, as the PostgreSQL store sends it. */
async function skillByNameQuery(): Promise<string> {
  let text = '';
  const capture = async (query: Sql) => {
    text = render(query, 'postgres').text;
    return undefined;
  };
  const db: Db = {
    dialect: 'postgres',
    decode: postgresDecode,
    all: async (q) => (await capture(q)) ?? [],
    get: capture,
    snapshot: (work) => work(db),
  };
  await skillReads(db).findSkillByName('writer', 'pdf-tools');
  return text;
}

describe(
  "PostgreSQL: a publisher's skill found by name through the identity index",
  { skip: url ? false : 'set REG_TEST_DATABASE_URL to run it' },
  () => {
    let schema: string;

    before(async () => {
      schema = await freshSchema(url!);
      await (await openPostgresStore(url!, { schema })).close(); // the migrations
    });
    after(() => dropSchema(url!, schema));

    it('in the generic plan that a prepared statement settles on after a few runs', async () => {
      const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        // Blind to the parameters' values, as a statement prepared once per connection is planned in the end;
        // the question is which index can serve it, not whether a table this small is worth an index at all.
        await client.query('SET plan_cache_mode = force_generic_plan');
        await client.query('SET enable_seqscan = off');
        await client.query(`PREPARE by_name AS ${await skillByNameQuery()}`);
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE by_name('writer', 'pdf-tools')`);
        assert.match(rows.map((r) => r['QUERY PLAN']).join('\n'), /Index Scan using skills_identity on skills/);
      } finally {
        await client.end();
      }
    });
  },
);
