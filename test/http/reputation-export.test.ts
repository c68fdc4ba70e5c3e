import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../../src/domain/keys.js';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeSkill,
  contributeUnit,
  errorCode,
  register,
  testApp,
  testConfig,
  type TestApp,
} from '../helpers/app.js';

for (const backend of backends()) {
  describe(`reputation [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(await backend.open());
    });
    after(async () => t.close());

    it('adds rewards exactly to the thousandth and keeps a history, newest first', async () => {
      const key = await register(t.app, 'earner');
      const validator = await register(t.app, 'judge');
      assert.deepEqual((await call(t.app, 'GET', '/v1/reputation/earner')).json().data.score, 0);
      await contributeSkill(t.app, key);
      const unit = await contributeUnit(t.app, key);
      const profile = (await call(t.app, 'GET', '/v1/reputation/earner')).json().data;
      assert.equal(profile.score, 0.3, '0.1 + 0.2 is 0.3, not 0.30000000000000004');
      assert.equal(profile.contributions, 2);
      assert.equal(profile.validations, 0);
      assert.deepEqual(
        profile.history.map((h: { action: string; delta: number }) => [h.action, h.delta]),
        [
          ['contribute_knowledge', 0.2],
          ['contribute_skill', 0.1],
        ],
      );
      assert.equal(profile.history[0].target_id, unit.id);
      assert.equal(profile.updated_at, profile.history[0].timestamp);
      for (let i = 0; i < 3; i++) {
        const u = await contributeUnit(t.app, key, { title: `unit ${i}` });
        await call(t.app, 'POST', `/v1/knowledge/${u.id}/validate`, { key: validator, body: { valid: true } });
      }
      assert.equal((await call(t.app, 'GET', '/v1/reputation/earner')).json().data.score, 0.9);
      const judge = (await call(t.app, 'GET', '/v1/reputation/judge')).json().data;
      assert.equal(judge.score, 0.15);
      assert.equal(judge.validations, 3);
      assert.equal(judge.contributions, 0);
    });

    it('answers 404 for an agent never seen, without authentication', async () => {
      const res = await call(t.app, 'GET', '/v1/reputation/nobody');
      assert.equal(res.statusCode, 404);
      assert.equal(errorCode(res), 'NOT_FOUND');
    });
  });

  describe(`export [${backend.name}]`, () => {
    let t: TestApp;
    let key: string;
    let raw: string[];
    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      key = await register(t.app, 'exporter');
      const second = await register(t.app, 'exporter', ['read'], 'free', key);
      raw = [key, second];
      await call(t.app, 'POST', '/v1/auth/revoke', { key, body: { key_prefix: second.slice(0, 8) } });
    });
    after(async () => t.close());

    it('exports everything tied to the agent, private skills included, and no secret', async () => {
      const other = await register(t.app, 'neighbour');
      const unit = await contributeUnit(t.app, key);
      const skill = await contributeSkill(t.app, key, { name: 'hidden-one' }, 'private');
      const theirs = await contributeUnit(t.app, other, { title: 'Neighbour unit' });
      await call(t.app, 'POST', `/v1/knowledge/${theirs.id}/validate`, {
        key,
        body: { valid: false, feedback: 'outdated' },
      });

      const res = await call(t.app, 'GET', '/v1/export/exporter', { key });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const { data } = res.json();
      assert.deepEqual(Object.keys(data), [
        'agent_id',
        'exported_at',
        'keys',
        'knowledge_units',
        'skills',
        'validations',
        'reputation',
      ]);
      assert.equal(data.agent_id, 'exporter');
      assert.equal(data.keys.length, 2);
      assert.deepEqual(Object.keys(data.keys[0]).sort(), ['created_at', 'key_prefix', 'revoked_at', 'scopes', 'tier']);
      assert.equal(data.keys[0].revoked_at, null);
      assert.notEqual(data.keys[1].revoked_at, null);
      assert.deepEqual(data.knowledge_units, [(await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).json().data]);
      assert.deepEqual(
        data.skills.map((s: { id: string; visibility: string }) => [s.id, s.visibility]),
        [[skill.id, 'private']],
      );
      assert.equal(data.validations.length, 1);
      assert.equal(data.validations[0].unit_id, theirs.id);
      assert.equal(data.validations[0].feedback, 'outdated');
      assert.equal(data.reputation.score, 0.35);
      assert.deepEqual(
        data.reputation.history.map((h: { action: string }) => h.action),
        ['contribute_knowledge', 'contribute_skill', 'validate_knowledge'],
        'full history, oldest first',
      );
      for (const secret of raw) assert.ok(!res.body.includes(secret.slice(8)), 'no raw key');
      // Content digests (sha256:…) of skill versions are in the export now; key hashes never are.
      assert.ok(!/key_hash/.test(res.body), 'no key hash field');
      for (const secret of raw) assert.ok(!res.body.includes(hashApiKey(secret)), 'no key hash');
    });

    it('is refused to others (403), to anonymous callers (401), and 404 for unknown agents', async () => {
      const stranger = await register(t.app, 'stranger');
      const res = await call(t.app, 'GET', '/v1/export/exporter', { key: stranger });
      assert.equal(res.statusCode, 403);
      assert.equal(errorCode(res), 'FORBIDDEN');
      assert.equal((await call(t.app, 'GET', '/v1/export/exporter')).statusCode, 401);
      const admin = await register(t.app, 'auditor', ['admin']);
      assert.equal((await call(t.app, 'GET', '/v1/export/exporter', { key: admin })).statusCode, 200);
      assert.equal((await call(t.app, 'GET', '/v1/export/ghost', { key: admin })).statusCode, 404);
    });

    it('streams an export larger than one batch, complete', async () => {
      const bulk = await register(t.app, 'bulk');
      const ids = new Set<string>();
      for (let i = 0; i < 1_100; i++) ids.add((await contributeUnit(t.app, bulk, { title: `bulk ${i}` })).id);
      const { data } = (await call(t.app, 'GET', '/v1/export/bulk', { key: bulk })).json();
      assert.equal(data.knowledge_units.length, 1_100);
      assert.deepEqual(new Set(data.knowledge_units.map((u: { id: string }) => u.id)), ids);
      assert.equal(data.reputation.history.length, 1_100);
      assert.equal(data.reputation.score, 220);
    });
  });
}
