import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { json, startServer, type Running } from './server.js';

const databaseUrl = process.env.REG_TEST_DATABASE_URL;
const redisUrl = process.env.REG_TEST_REDIS_URL;
const skip = !databaseUrl || !redisUrl ? 'REG_TEST_DATABASE_URL and REG_TEST_REDIS_URL are not both set' : false;

/** A database of its own for this run, dropped afterwards. */
async function withDatabase(name: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql.replace('$db', `"${name}"`));
  } finally {
    await client.end();
  }
}

describe('two instances on one PostgreSQL and one Redis', { skip }, () => {
  const database = `reg_two_${randomBytes(5).toString('hex')}`;
  let a: Running;
  let b: Running;
  before(async () => {
    await withDatabase(database, 'CREATE DATABASE $db');
    const url = new URL(databaseUrl!);
    url.pathname = `/${database}`;
    const env = {
      REG_DATABASE_URL: url.toString(),
      REG_REDIS_URL: redisUrl!,
      REG_REDIS_KEY_PREFIX: `two:${database}:`,
      REG_RATE_LIMIT_ANONYMOUS: '10',
      // Each test speaks from its own client address, so the anonymous budgets do not mix.
      REG_TRUST_PROXY: 'true',
    };
    // Both start at once: their migrations race on the same empty database.
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await withDatabase(database, 'DROP DATABASE IF EXISTS $db WITH (FORCE)');
  });

  it("reads through B what was written through A, and enforces A's id claim on B", async () => {
    const reg = await json(`${a.url}/v1/auth/register`, {
      method: 'POST',
      body: { agent_id: 'twin', scopes: ['read', 'write'], tier: 'free' },
    });
    assert.equal(reg.status, 201);
    const key = reg.body.data.api_key as string;
    const unit = await json(`${a.url}/v1/knowledge`, {
      method: 'POST',
      key,
      body: {
        title: 'Written on A',
        type: 'fact',
        domain: 'scale-out',
        content: { description: 'Instances share one database.', examples: [] },
        metadata: { source: 'two-instance test', confidence: 0.9 },
      },
    });
    assert.equal(unit.status, 201);
    const read = await json(`${b.url}/v1/knowledge/${unit.body.data.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, unit.body.data);

    const claim = await json(`${b.url}/v1/auth/register`, {
      method: 'POST',
      body: { agent_id: 'twin', scopes: ['read'], tier: 'free' },
    });
    assert.equal(claim.status, 409);
    assert.equal(claim.body.error.code, 'CONFLICT');
  });

  it('refuses on B a key revoked through A, on the very next request', async () => {
    const first = await json(`${a.url}/v1/auth/register`, {
      method: 'POST',
      body: { agent_id: 'revoked-twin', scopes: ['read', 'write'], tier: 'free' },
    });
    const key = first.body.data.api_key as string;
    assert.equal((await json(`${b.url}/v1/export/revoked-twin`, { key })).status, 200, 'B knows the key');
    const revoke = await json(`${a.url}/v1/auth/revoke`, {
      method: 'POST',
      key,
      body: { key_prefix: key.slice(0, 8) },
    });
    assert.equal(revoke.status, 200);
    const after = await json(`${b.url}/v1/export/revoked-twin`, { key });
    assert.equal(after.status, 401);
    assert.equal(after.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  });
  it('searches on both instances agree with the database after skills flip visibility through both while both publish', async () => {
    const reg = await json(`${a.url}/v1/auth/register`, {
      method: 'POST',
      body: { agent_id: 'flipper', scopes: ['read', 'write'], tier: 'pro' },
    });
    const key = reg.body.data.api_key as string;
    const publish = async (on: Running, name: string, word: string) => {
      const res = await json(`${on.url}/v1/skills`, {
        method: 'POST',
        key,
        body: {
          skill_md_content: `---\nname: ${name}\ndescription: ${word} survey tools.\n---\n# ${word}\n`,
          visibility: 'public',
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    const flipped = [];
    for (let i = 0; i < 30; i++) flipped.push(await publish(i % 2 ? b : a, `flip-${i}`, 'kookaburra'));
    const setVisibility = (on: Running, id: string, visibility: string) =>
      json(`${on.url}/v1/skills/${id}/visibility`, { method: 'POST', key, body: { visibility } });
    // Both instances write at once: flips (each ending private) beside new publications, with searches.
    const published: Promise<string>[] = [];
    await Promise.all([
      ...flipped.map(async (id, i) => {
        for (const visibility of ['private', 'public', 'private'])
          assert.equal((await setVisibility(i % 2 ? a : b, id, visibility)).status, 200);
      }),
      ...Array.from({ length: 40 }, (_, i) => {
        const made = publish(i % 2 ? a : b, `emu-${i}`, 'emu');
        published.push(made);
        return made;
      }),
      ...Array.from({ length: 20 }, (_, i) => json(`${(i % 2 ? a : b).url}/v1/skills?q=kookaburra`, { key })),
    ]);
    for (const on of [a, b]) {
      const anonymous = await json(`${on.url}/v1/skills?q=kookaburra&limit=100`, {
        headers: { 'x-forwarded-for': '198.51.100.20' },
      });
      assert.equal(anonymous.status, 200);
      assert.deepEqual(anonymous.body.data, [], 'every flipped skill ended private');
      assert.equal(anonymous.body.total, 0);
      const emus = await json(`${on.url}/v1/skills?q=emu&limit=100`, { key });
      assert.equal(emus.body.total, 40, 'every acknowledged publication is searchable');
    }
  });

  it('allows 10 anonymous requests per minute across both instances together, not 20', async () => {
    const statuses: number[] = [];
    const from = { headers: { 'x-forwarded-for': '198.51.100.10' } };
    for (let i = 0; i < 12; i++) statuses.push((await fetch(`${(i % 2 ? b : a).url}/v1/knowledge`, from)).status);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
  });
});
