// Hardening, round two: one test per finding of the second penetration test, each failing on the
// code before the fix. docs/security.md names the test behind each defence.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { loadConfig } from '../../src/config/index.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeSkill,
  contributeUnit,
  errorCode,
  register,
  skillMd,
  testApp,
  testConfig,
  unitBody,
  type TestApp,
} from '../helpers/app.js';
import { randomIds } from '../../src/domain/ids.js';

const UUID = '6f0c2a1e-9b7d-4c3e-8a5f-1d2e3f4a5b6c';
const json = { 'content-type': 'application/json' };

for (const backend of backends()) {
  describe(`hardening: rewards, verdicts, tiers, quotas and ids [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      const quotas = { ...testConfig().quotas, free: { units: 3, skills: 2, bytes: 4_000 } };
      t = await testApp(await backend.open(), {
        config: testConfig({ openAdminRegistration: true, selfServiceTiers: ['free', 'pro'], quotas }),
      });
    });
    after(async () => t.close());

    const score = async (agent: string) => (await call(t.app, 'GET', `/v1/reputation/${agent}`)).json().data;

    it("takes a deleted unit's reward back, so contribute-and-delete earns nothing (13.5)", async () => {
      const key = await register(t.app, 'cycler');
      for (let i = 0; i < 5; i++) {
        const unit = await contributeUnit(t.app, key, { title: `cycle ${i}` });
        assert.equal((await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key })).statusCode, 200);
      }
      const profile = await score('cycler');
      assert.equal(profile.score, 0);
      assert.equal(profile.contributions, 0);
      assert.equal(profile.history.length, 10, 'the history keeps both items of every cycle');
      assert.deepEqual(
        profile.history.slice(0, 2).map((h: { delta: number }) => h.delta),
        [-0.2, 0.2],
      );
    });

    it("weighs a verdict by the validator's standing: throwaway agents move quality little (13.5)", async () => {
      const author = await register(t.app, 'weighed-author', ['read', 'write'], 'pro');
      const target = await contributeUnit(t.app, author, { title: 'A unit to push around' });
      const base = target.quality_score;
      for (let i = 0; i < 5; i++) {
        const sybil = await register(t.app, `sybil-${i}`);
        assert.equal(
          (await call(t.app, 'POST', `/v1/knowledge/${target.id}/validate`, { key: sybil, body: { valid: true } }))
            .statusCode,
          200,
        );
      }
      const afterSybils = (await call(t.app, 'GET', `/v1/knowledge/${target.id}`)).json().data;
      assert.deepEqual(afterSybils.validations, { valid: 5, invalid: 0 });
      // Five agents with no contributions count 0.1 each: (4 × base + 0.5) / 4.5.
      assert.equal(afterSybils.quality_score, Math.round(((4 * base + 0.5) / 4.5) * 10_000) / 10_000);
      // An established validator (ten contributions held) counts in full.
      const veteran = await register(t.app, 'veteran', ['read', 'write'], 'pro');
      for (let i = 0; i < 10; i++) await contributeUnit(t.app, veteran, { title: `veteran work ${i}` });
      const other = await contributeUnit(t.app, author, { title: 'Judged by a veteran' });
      await call(t.app, 'POST', `/v1/knowledge/${other.id}/validate`, { key: veteran, body: { valid: true } });
      const judged = (await call(t.app, 'GET', `/v1/knowledge/${other.id}`)).json().data;
      assert.equal(judged.quality_score, Math.round(((4 * other.quality_score + 1) / 5) * 10_000) / 10_000);
    });

    it('grants tiers outside REG_SELF_SERVICE_TIERS to admins only (13.6)', async () => {
      const res = await call(t.app, 'POST', '/v1/auth/register', {
        body: { agent_id: 'wannabe', scopes: ['read'], tier: 'enterprise' },
      });
      assert.equal(res.statusCode, 403);
      assert.match(res.json().error.message, /enterprise tier is granted by an admin/);
      assert.equal((await call(t.app, 'GET', '/v1/reputation/wannabe')).statusCode, 404, 'nothing was created');
      const admin = await register(t.app, 'tier-admin', ['read', 'admin'], 'free');
      const granted = await call(t.app, 'POST', '/v1/auth/register', {
        key: admin,
        body: { agent_id: 'granted', scopes: ['read'], tier: 'enterprise' },
      });
      assert.equal(granted.statusCode, 201);
    });

    it("refuses a write over the tier's storage quota, naming it, and frees room on delete (13.7)", async () => {
      const key = await register(t.app, 'hoarder');
      const units = [];
      for (let i = 0; i < 3; i++) units.push(await contributeUnit(t.app, key, { title: `hoard ${i}` }));
      const over = await call(t.app, 'POST', '/v1/knowledge', { key, body: unitBody({ title: 'one too many' }) });
      assert.equal(over.statusCode, 403);
      assert.equal(errorCode(over), 'FORBIDDEN');
      assert.match(
        over.json().error.message,
        /quota exceeded: the free tier holds at most 3 knowledge units per agent, and this agent holds 3/,
      );
      assert.equal((await score('hoarder')).contributions, 3, 'nothing was written');
      await call(t.app, 'DELETE', `/v1/knowledge/${units[0]!.id}`, { key });
      assert.equal(
        (await call(t.app, 'POST', '/v1/knowledge', { key, body: unitBody({ title: 'room again' }) })).statusCode,
        201,
      );
      const bytes = await register(t.app, 'bulky');
      const big = await call(t.app, 'POST', '/v1/skills', {
        key: bytes,
        body: { skill_md_content: skillMd({}, `# Big\n\n${'word '.repeat(900)}\n`), visibility: 'public' },
      });
      assert.equal(big.statusCode, 403);
      assert.match(big.json().error.message, /at most 4000 bytes of stored text/);
    });

    it('refuses an agent id that looks like an existing one (13.12)', async () => {
      await register(t.app, 'alice');
      for (const lookalike of ['Alice', 'ALICE', 'a1ice', 'aIice', 'a|ice'.replace('|', 'l').toUpperCase()]) {
        const res = await call(t.app, 'POST', '/v1/auth/register', {
          body: { agent_id: lookalike, scopes: ['read'], tier: 'free' },
        });
        assert.equal(res.statusCode, 409, lookalike);
        assert.match(res.json().error.message, /looks like the id of an existing agent/);
      }
      await register(t.app, 'Oscar0');
      assert.equal(
        (
          await call(t.app, 'POST', '/v1/auth/register', {
            body: { agent_id: '0scarO', scopes: ['read'], tier: 'free' },
          })
        ).statusCode,
        409,
      );
      await register(t.app, 'alice2'); // different letters: fine
    });

    it('refuses text fields with nothing visible in them, and trims the title before measuring it (13.12, 13.15)', async () => {
      const key = await register(t.app, 'typist');
      for (const [body, field] of [
        [unitBody({ title: '\u200b\u200b\u200b' }), 'title'],
        [unitBody({ domain: '\u2060' }), 'domain'],
        [unitBody({ tags: ['ok', '\ufeff'] }), 'tags.1'],
        [unitBody({ content: { description: '\u200d \u200c', examples: [] } }), 'content.description'],
      ] as const) {
        const res = await call(t.app, 'POST', '/v1/knowledge', { key, body });
        assert.equal(res.statusCode, 400, field);
        assert.match(
          res.json().error.message,
          new RegExp(`^${field.replace('.', '\\.')} must contain a non-space character`),
        );
      }
      const padded = await call(t.app, 'POST', '/v1/knowledge', {
        key,
        body: unitBody({ title: `  ${'t'.repeat(200)}  ` }),
      });
      assert.equal(padded.statusCode, 201, padded.body);
      assert.equal(padded.json().data.title, 't'.repeat(200));
    });

    it("keeps a private skill out of its author's public history, not out of its own (13.10)", async () => {
      const key = await register(t.app, 'secretive', ['read', 'write'], 'free');
      const secret = await contributeSkill(t.app, key, { name: 'hidden-skill' }, 'private');
      const shown = await contributeSkill(t.app, key, { name: 'shown-skill' }, 'public');
      const publicView = (await call(t.app, 'GET', '/v1/reputation/secretive')).json().data;
      assert.deepEqual(
        publicView.history.map((h: { target_id: string }) => h.target_id),
        [shown.id],
      );
      assert.ok(!JSON.stringify(publicView).includes(secret.id));
      const ownView = (await call(t.app, 'GET', '/v1/reputation/secretive', { key })).json().data;
      assert.deepEqual(
        ownView.history.map((h: { target_id: string }) => h.target_id),
        [shown.id, secret.id],
      );
    });

    it('lets a key revoke only keys whose scopes it holds itself (13.13)', async () => {
      const writer = await register(t.app, 'keyholder', ['read', 'write'], 'free');
      const reader = await register(t.app, 'keyholder', ['read'], 'free', writer);
      const res = await call(t.app, 'POST', '/v1/auth/revoke', {
        key: reader,
        body: { key_prefix: writer.slice(0, 8) },
      });
      assert.equal(res.statusCode, 404);
      assert.equal(
        (await call(t.app, 'GET', '/v1/export/keyholder', { key: writer })).statusCode,
        200,
        'the write key still works',
      );
      const spare = await register(t.app, 'keyholder', ['read'], 'free', writer);
      assert.equal(
        (await call(t.app, 'POST', '/v1/auth/revoke', { key: reader, body: { key_prefix: spare.slice(0, 8) } }))
          .statusCode,
        200,
      );
    });

    it('replays a saved answer only to the credential that made it (13.3)', async () => {
      const admin = await register(t.app, 'replay-admin', ['read', 'write', 'admin'], 'free');
      const weak = await register(t.app, 'replay-admin', ['read'], 'free', admin);
      const body = { agent_id: 'replay-admin', scopes: ['read', 'admin'], tier: 'free' };
      const headers = { 'idempotency-key': UUID };
      const minted = await call(t.app, 'POST', '/v1/auth/register', { key: admin, body, headers });
      assert.equal(minted.statusCode, 201);
      const replayed = await call(t.app, 'POST', '/v1/auth/register', { key: weak, body, headers });
      assert.equal(replayed.statusCode, 403, 'the read-only key is checked as on any request');
      assert.ok(!replayed.body.includes(minted.json().data.api_key));
      const again = await call(t.app, 'POST', '/v1/auth/register', { key: admin, body, headers });
      assert.equal(again.json().data.api_key, minted.json().data.api_key, 'the same key replays');
      assert.equal(again.headers['cache-control'], 'no-store');
    });
  });
}

describe('hardening: idempotent secrets, proxies, bodies, headers and readiness', () => {
  it('asks for a high-entropy Idempotency-Key where the answer carries a secret (13.3)', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const body = { agent_id: 'short-key', scopes: ['read'], tier: 'free' };
      const res = await call(t.app, 'POST', '/v1/auth/register', { body, headers: { 'idempotency-key': 'k1' } });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().error.message, /at least 32 random characters/);
      assert.equal((await call(t.app, 'GET', '/v1/reputation/short-key')).statusCode, 404);
    } finally {
      await t.close();
    }
  });

  it('seals saved answers with a server-side secret: the database and the key alone open nothing (13.3)', async () => {
    const store = openSqliteStore('sqlite::memory:');
    const first = await testApp(store, { secret: Buffer.alloc(48, 1) });
    const second = await testApp(store, { secret: Buffer.alloc(48, 2) });
    try {
      const body = { agent_id: 'sealed', scopes: ['read'], tier: 'free' };
      const headers = { 'idempotency-key': UUID };
      const made = await call(first.app, 'POST', '/v1/auth/register', { body, headers });
      assert.equal(made.statusCode, 201);
      const elsewhere = await call(second.app, 'POST', '/v1/auth/register', { body, headers });
      assert.equal(elsewhere.statusCode, 409, 'another secret cannot open it');
      assert.ok(!elsewhere.body.includes(made.json().data.api_key));
      assert.equal(
        (await call(first.app, 'POST', '/v1/auth/register', { body, headers })).json().data.api_key,
        made.json().data.api_key,
      );
    } finally {
      await first.app.close();
      await second.close();
    }
  });

  it('takes the client address from the trusted hops only, never the client-written leftmost one (13.4)', async () => {
    assert.equal(loadConfig({ REG_TRUST_PROXY: '1' }).trustProxy, 1);
    assert.equal(loadConfig({ REG_TRUST_PROXY: 'true' }).trustProxy, 1);
    assert.equal(loadConfig({ REG_TRUST_PROXY: '2' }).trustProxy, 2);
    const config = testConfig({
      trustProxy: loadConfig({ REG_TRUST_PROXY: '1' }).trustProxy,
      rateLimits: { anonymous: 2, free: 9, pro: 9, enterprise: 9 },
    });
    const t = await testApp(openSqliteStore('sqlite::memory:'), { config });
    try {
      const from = (forwarded: string) =>
        call(t.app, 'GET', '/v1/knowledge', { headers: { 'x-forwarded-for': forwarded } });
      assert.equal((await from('198.51.100.1, 203.0.113.9')).statusCode, 200);
      assert.equal((await from('198.51.100.2, 203.0.113.9')).statusCode, 200);
      assert.equal(
        (await from('198.51.100.3, 203.0.113.9')).statusCode,
        429,
        'a new spoofed leftmost address buys nothing',
      );
      assert.equal(
        (await from('198.51.100.1, 203.0.113.10')).statusCode,
        200,
        'another client seen by the proxy has its own budget',
      );
    } finally {
      await t.close();
    }
  });

  it('answers 503, not 500, when no unused key prefix can be drawn (13.8)', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'), {
      ids: {
        ...randomIds,
        skillId: () => 'sk_x',
        unitId: () => 'ku_x',
        apiKey: () => `reg_SAME${'x'.repeat(36)}${Math.random().toString(36).slice(2, 6)}`,
      },
    });
    try {
      assert.equal(
        (
          await call(t.app, 'POST', '/v1/auth/register', {
            body: { agent_id: 'first', scopes: ['read'], tier: 'free' },
          })
        ).statusCode,
        201,
      );
      const res = await call(t.app, 'POST', '/v1/auth/register', {
        body: { agent_id: 'second', scopes: ['read'], tier: 'free' },
      });
      assert.equal(res.statusCode, 503);
      assert.equal(errorCode(res), 'UNAVAILABLE');
      assert.match(res.json().error.message, /key prefixes are nearly exhausted/);
      assert.ok(res.headers['retry-after']);
    } finally {
      await t.close();
    }
  });

  it('answers 404 and 405 with the envelope to a deeply nested body with an Idempotency-Key (13.9)', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const headers = { ...json, 'idempotency-key': 'deep' };
      const unknown = await t.app.inject({ method: 'POST', url: '/no/such/route', headers, payload: deep });
      assert.equal(unknown.statusCode, 404, unknown.body);
      assert.equal(unknown.json().error.code, 'NOT_FOUND');
      const wrongMethod = await t.app.inject({ method: 'PUT', url: '/v1/knowledge', headers, payload: deep });
      assert.equal(wrongMethod.statusCode, 405, wrongMethod.body);
      assert.equal(wrongMethod.json().error.code, 'METHOD_NOT_ALLOWED');
    } finally {
      await t.close();
    }
  });

  it('refuses a body that is not valid UTF-8 instead of storing U+FFFD (13.11)', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const key = await register(t.app, 'bytes');
      const text = JSON.stringify(unitBody({ title: 'caf\u00e9 TITLE' }));
      const payload = Buffer.from(text, 'utf8');
      const at = payload.indexOf(Buffer.from('TITLE'));
      payload[at] = 0xff; // a byte that is never valid UTF-8
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/knowledge',
        headers: { ...json, authorization: `Bearer ${key}` },
        payload,
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().error.message, /not valid UTF-8/);
      assert.equal((await call(t.app, 'GET', '/v1/knowledge')).json().total, 0);
    } finally {
      await t.close();
    }
  });

  it('marks every answer nosniff, a raw key no-store, and answers a missing Host with the envelope (13.14)', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      for (const url of ['/healthz', '/v1/skills', '/v1/nope'])
        assert.equal((await call(t.app, 'GET', url)).headers['x-content-type-options'], 'nosniff', url);
      const registered = await call(t.app, 'POST', '/v1/auth/register', {
        body: { agent_id: 'cached', scopes: ['read'], tier: 'free' },
      });
      assert.equal(registered.headers['cache-control'], 'no-store');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const { connect } = await import('node:net');
      const text = await new Promise<string>((resolve, reject) => {
        let got = '';
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'),
        );
        socket.on('data', (chunk) => (got += chunk));
        socket.on('end', () => resolve(got));
        socket.on('error', reject);
      });
      assert.match(text, /^HTTP\/1\.1 400 /);
      assert.match(
        text,
        /\{"error":\{"code":"VALIDATION_ERROR","message":"the Host header is required \(HTTP\/1\.1\)"\}\}$/,
      );
    } finally {
      await t.close();
    }
  });

  it('says not ready while the database disk is full (13.14)', async () => {
    let free = 10 * 1024 ** 3;
    const t = await testApp(openSqliteStore('sqlite::memory:', { freeBytes: () => free }));
    try {
      assert.equal((await call(t.app, 'GET', '/readyz')).statusCode, 200);
      free = 1024;
      const full = await call(t.app, 'GET', '/readyz');
      assert.equal(full.statusCode, 503);
      assert.match(full.json().error.message, /disk holding the database is full/);
      free = 10 * 1024 ** 3;
      assert.equal((await call(t.app, 'GET', '/readyz')).statusCode, 200, 'ready again once there is room');
    } finally {
      await t.close();
    }
  });

  it('starts with OIDC off when it is half configured, and says so in /readyz (13.16)', async () => {
    const config = {
      ...testConfig(),
      ...loadConfig({ REG_DATABASE_URL: 'sqlite::memory:', REG_OIDC_ISSUER: 'https://idp.example/' }),
    };
    const t = await testApp(openSqliteStore('sqlite::memory:'), {
      config: { ...config, rateLimits: testConfig().rateLimits },
    });
    try {
      const ready = await call(t.app, 'GET', '/readyz');
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json().warnings, [
        'OIDC is only partly configured: REG_OIDC_AUDIENCE, REG_OIDC_JWKS_URL are missing, so identity-provider (JWT) authentication is OFF and only API keys apply (set all three to turn it on)',
      ]);
      const key = await register(t.app, 'still-works');
      assert.equal(
        (await call(t.app, 'GET', '/v1/export/still-works', { key })).statusCode,
        200,
        'API keys still apply',
      );
    } finally {
      await t.close();
    }
  });
});

describe('hardening: bounded answers (13.2)', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp(openSqliteStore('sqlite::memory:'));
    key = await register(t.app, 'bulk-writer', ['read', 'write'], 'pro');
    const long = 'x'.repeat(19_000);
    const examples = Array.from({ length: 50 }, () => 'e'.repeat(4_900));
    for (let i = 0; i < 5; i++)
      await contributeUnit(t.app, key, { title: `huge ${i}`, content: { description: long, examples } });
    await contributeSkill(t.app, key, { name: 'big-skill' }, 'public', `# Body\n\n${'word '.repeat(5_000)}`);
  });
  after(async () => t.close());

  it('lists units as summaries: text cut to the documented lengths and marked, everything by id', async () => {
    const page = await call(t.app, 'GET', '/v1/knowledge?limit=100');
    assert.ok(page.body.length < 5 * 2_500, `${page.body.length} bytes for five huge units`);
    const item = page.json().data[0];
    assert.equal(item.truncated, true);
    assert.equal(item.content.description.length, 500);
    assert.deepEqual(
      item.content.examples.map((e: string) => e.length),
      [300, 300, 300],
    );
    const full = (await call(t.app, 'GET', `/v1/knowledge/${item.id}`)).json().data;
    assert.equal(full.content.description.length, 19_000);
    assert.equal(full.content.examples.length, 50);
    assert.equal(full.truncated, undefined);
  });

  it('lists skills without their SKILL.md', async () => {
    const page = (await call(t.app, 'GET', '/v1/skills')).json();
    assert.equal(page.data.length, 1);
    assert.equal(page.data[0].skill_md_content, undefined);
    assert.ok((await call(t.app, 'GET', `/v1/skills/${page.data[0].id}`)).json().data.skill_md_content.length > 25_000);
  });

  it('refuses a SKILL.md with 12,000 frontmatter keys by its rule, while other requests are answered', async () => {
    const keys = Array.from({ length: 12_000 }, (_, i) => `${i.toString(36)}: 1`).join('\n');
    const skill_md_content = `---\nname: many-keys\ndescription: Too many keys.\n${keys}\n---\nBody.\n`;
    const posting = call(t.app, 'POST', '/v1/skills', { key, body: { skill_md_content, visibility: 'public' } });
    const health = call(t.app, 'GET', '/healthz');
    const [refused, healthy] = await Promise.all([posting, health]);
    assert.equal(healthy.statusCode, 200);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().error.message, /\(rule too_many_(keys|values)\)/);
  });

  it('streams an export without holding the event loop: other requests are answered meanwhile', async () => {
    const exporting = t.app.inject({
      method: 'GET',
      url: '/v1/export/bulk-writer',
      headers: { authorization: `Bearer ${key}` },
    });
    let exportDone = false;
    void exporting.then(() => (exportDone = true));
    await tick();
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.equal(exportDone, false, 'the health check was answered while the export was still being written');
    const res = await exporting;
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.knowledge_units.length, 5);
  });
});
