import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { json, startServer } from './server.js';

const unit = (i: number) => ({
  title: `Crash-safe unit ${i}`,
  type: 'fact',
  domain: 'durability',
  content: { description: `Acknowledged writes survive kill -9 (${i}).`, examples: [] },
  metadata: { source: 'crash test', confidence: 0.5 },
});

/**
 * Drives contributions and validations from several agents, kills the server with SIGKILL while
 * requests are in flight, restarts it, and checks every acknowledged write and every agent's reputation.
 */
async function crashAndCheck(env: Record<string, string>): Promise<void> {
  let server = await startServer(env);
  const agents: { id: string; key: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const reg = await json(`${server.url}/v1/auth/register`, {
      method: 'POST',
      body: { agent_id: `crash-${i}`, scopes: ['read', 'write'], tier: 'enterprise' },
    });
    agents.push({ id: `crash-${i}`, key: reg.body.data.api_key });
  }
  const acknowledgedUnits: { id: string; agent: string }[] = [];
  const acknowledgedVerdicts: { unit: string; agent: string }[] = [];
  let sent = 0;
  let killed = false;
  const worker = async (w: number) => {
    const me = agents[w % agents.length]!;
    while (!killed) {
      const i = sent++;
      try {
        const target = acknowledgedUnits.find(
          (u) => u.agent !== me.id && !acknowledgedVerdicts.some((v) => v.unit === u.id && v.agent === me.id),
        );
        if (target && i % 3 === 0) {
          const res = await json(`${server.url}/v1/knowledge/${target.id}/validate`, {
            method: 'POST',
            key: me.key,
            body: { valid: true },
          });
          if (res.status === 200) acknowledgedVerdicts.push({ unit: target.id, agent: me.id });
        } else {
          const res = await json(`${server.url}/v1/knowledge`, { method: 'POST', key: me.key, body: unit(i) });
          if (res.status === 201) acknowledgedUnits.push({ id: res.body.data.id, agent: me.id });
        }
      } catch {
        return; // the connection died with the server
      }
    }
  };
  const workers = Array.from({ length: 12 }, (_, w) => worker(w));
  while (acknowledgedUnits.length < 150) await new Promise((r) => setTimeout(r, 5));
  killed = true;
  server.child.kill('SIGKILL');
  await Promise.all(workers);
  await server.stop();

  server = await startServer(env);
  try {
    for (const u of acknowledgedUnits) {
      assert.equal(
        (await json(`${server.url}/v1/knowledge/${u.id}`)).status,
        200,
        `acknowledged unit ${u.id} is there`,
      );
    }
    for (const agent of agents) {
      const { body } = await json(`${server.url}/v1/export/${agent.id}`, { key: agent.key });
      const { knowledge_units: units, validations, reputation } = body.data;
      for (const v of acknowledgedVerdicts.filter((x) => x.agent === agent.id)) {
        assert.ok(
          validations.some((g: { unit_id: string }) => g.unit_id === v.unit),
          `acknowledged verdict on ${v.unit}`,
        );
      }
      // Everything that was committed is whole: the reward of each stored write is there, exactly.
      const expected = Math.round(units.length * 200 + validations.length * 50) / 1000;
      assert.equal(reputation.score, expected, `${agent.id}'s reputation matches its stored writes`);
      assert.equal(reputation.history.length, units.length + validations.length);
    }
  } finally {
    await server.stop();
  }
}

describe('crash safety', () => {
  it('keeps every acknowledged write through kill -9 on SQLite, and the file stays intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-crash-'));
    const file = join(dir, 'registry.db');
    try {
      await crashAndCheck({
        REG_DATABASE_URL: `sqlite:${file}`,
        REG_RATE_LIMIT_ENTERPRISE: '1000000',
        REG_RATE_LIMIT_ANONYMOUS: '1000000',
      });
      const db = new Database(file, { readonly: true });
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(db.pragma('foreign_key_check'), []);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'keeps every acknowledged write through kill -9 on PostgreSQL',
    {
      skip: process.env.REG_TEST_DATABASE_URL ? false : 'REG_TEST_DATABASE_URL is not set',
    },
    async () => {
      const admin = new pg.Client({ connectionString: process.env.REG_TEST_DATABASE_URL });
      await admin.connect();
      const database = `reg_crash_${randomBytes(5).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${database}"`);
      try {
        const url = new URL(process.env.REG_TEST_DATABASE_URL!);
        url.pathname = `/${database}`;
        await crashAndCheck({
          REG_DATABASE_URL: url.toString(),
          REG_RATE_LIMIT_ENTERPRISE: '1000000',
          REG_RATE_LIMIT_ANONYMOUS: '1000000',
        });
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await admin.end();
      }
    },
  );
});
