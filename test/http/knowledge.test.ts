import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeUnit,
  errorCode,
  register,
  testApp,
  testConfig,
  unitBody,
  type TestApp,
} from '../helpers/app.js';

for (const backend of backends()) {
  describe(`knowledge units [${backend.name}]`, () => {
    let t: TestApp;
    let alice: string;
    let bob: string;
    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      alice = await register(t.app, 'alice');
      bob = await register(t.app, 'bob');
    });
    after(async () => t.close());

    it('contributes a unit with server-assigned fields and a quality score', async () => {
      const res = await call(t.app, 'POST', '/v1/knowledge', {
        key: alice,
        body: unitBody({ title: '  Padded title  ' }),
      });
      assert.equal(res.statusCode, 201, res.body);
      const { data, quality_score } = res.json();
      assert.match(data.id, /^ku_[A-Za-z0-9_-]{22}$/);
      assert.equal(data.agent_id, 'alice');
      assert.equal(data.title, 'Padded title');
      assert.deepEqual(data.validations, { valid: 0, invalid: 0 });
      assert.equal(data.quality_score, quality_score);
      assert.ok(quality_score > 0 && quality_score <= 1);
      assert.equal(data.created_at, data.updated_at);
      const got = await call(t.app, 'GET', `/v1/knowledge/${data.id}`);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), { data });
    });

    it('refuses invalid units with 400 naming the field, and stores nothing', async () => {
      const before = (await call(t.app, 'GET', '/v1/knowledge?limit=1')).json().total;
      const cases: [Record<string, unknown>, RegExp][] = [
        [unitBody({ title: '' }), /^title /],
        [unitBody({ title: '   ' }), /^title must contain a non-space character/],
        [unitBody({ title: 'x'.repeat(201) }), /^title /],
        [unitBody({ type: 'opinion' }), /^type must be one of pattern, technique/],
        [unitBody({ content: { description: '', examples: [] } }), /^content\.description /],
        [unitBody({ content: { description: 'x'.repeat(20_001), examples: [] } }), /^content\.description /],
        [unitBody({ content: { description: 'ok', examples: [''] } }), /^content\.examples\.0 /],
        [unitBody({ content: { description: 'ok', examples: Array(51).fill('e') } }), /^content\.examples /],
        [unitBody({ content: { examples: [] } }), /^content\.description is required/],
        [unitBody({ metadata: { source: 'x', confidence: 1.5 } }), /^metadata\.confidence /],
        [unitBody({ metadata: { source: 'x', confidence: '0.5' } }), /^metadata\.confidence must be number/],
        [unitBody({ tags: Array(21).fill('t') }), /^tags /],
        [unitBody({ tags: ['x'.repeat(51)] }), /^tags\.0 /],
        [unitBody({ id: 'ku_mine' }), /^id is assigned by the server/],
        [unitBody({ agent_id: 'bob' }), /^agent_id is assigned by the server/],
        [unitBody({ quality_score: 1 }), /^quality_score is assigned by the server/],
        [unitBody({ validations: { valid: 9, invalid: 0 } }), /^validations is assigned by the server/],
        [unitBody({ created_at: '2020-01-01T00:00:00.000Z' }), /^created_at is assigned by the server/],
        [unitBody({ colour: 'red' }), /^colour is not a known field/],
        [
          unitBody({ content: { description: 'ok', examples: [], extra: true } }),
          /^content\.extra is not a known field/,
        ],
        [unitBody({ title: 'nul\u0000byte' }), /^title must be well-formed Unicode/],
        [unitBody({ title: 'lone \ud800 surrogate' }), /^title must be well-formed Unicode/],
      ];
      for (const [body, message] of cases) {
        const res = await call(t.app, 'POST', '/v1/knowledge', { key: alice, body });
        assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 120));
        assert.equal(errorCode(res), 'VALIDATION_ERROR');
        assert.match(res.json().error.message, message);
      }
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?limit=1')).json().total, before);
      assert.equal((await call(t.app, 'GET', '/v1/reputation/alice')).json().data.contributions, 1);
    });

    it('requires the write scope to contribute', async () => {
      const reader = await register(t.app, 'reader', ['read']);
      const res = await call(t.app, 'POST', '/v1/knowledge', { key: reader, body: unitBody() });
      assert.equal(res.statusCode, 403);
      assert.equal(errorCode(res), 'FORBIDDEN');
      const anonymous = await call(t.app, 'POST', '/v1/knowledge', { body: unitBody() });
      assert.equal(anonymous.statusCode, 401);
    });

    it('answers 404 for an unknown unit', async () => {
      const res = await call(t.app, 'GET', '/v1/knowledge/ku_doesnotexist');
      assert.equal(res.statusCode, 404);
      assert.equal(errorCode(res), 'NOT_FOUND');
    });

    it('moves the score with verdicts: one per agent, replaced by a later one, never on its own unit', async () => {
      const unit = await contributeUnit(t.app, alice, { title: 'Verdict target' });
      const own = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: alice, body: { valid: true } });
      assert.equal(own.statusCode, 403);

      const up = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, {
        key: bob,
        body: { valid: true, feedback: 'works as described' },
      });
      assert.equal(up.statusCode, 200);
      assert.deepEqual(up.json(), { data: { id: unit.id, validated: true, feedback: 'works as described' } });
      const raised = (await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).json().data;
      assert.ok(raised.quality_score > unit.quality_score);
      assert.deepEqual(raised.validations, { valid: 1, invalid: 0 });

      const down = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: bob, body: { valid: false } });
      assert.deepEqual(down.json(), { data: { id: unit.id, validated: false, feedback: '' } });
      const lowered = (await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).json().data;
      assert.ok(lowered.quality_score < unit.quality_score);
      assert.deepEqual(lowered.validations, { valid: 0, invalid: 1 });

      const bobProfile = (await call(t.app, 'GET', '/v1/reputation/bob')).json().data;
      assert.equal(bobProfile.validations, 1, 'a replaced verdict earns nothing more');
      assert.equal(bobProfile.score, 0.05);
    });

    it('lets a read-only key validate, and refuses anonymous callers and unknown units', async () => {
      const unit = await contributeUnit(t.app, alice, { title: 'Read-only validation' });
      const reader = await register(t.app, 'reader-validator', ['read']);
      const ok = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: reader, body: { valid: true } });
      assert.equal(ok.statusCode, 200);
      const anonymous = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { body: { valid: true } });
      assert.equal(anonymous.statusCode, 401);
      const missing = await call(t.app, 'POST', '/v1/knowledge/ku_missing/validate', {
        key: bob,
        body: { valid: true },
      });
      assert.equal(missing.statusCode, 404);
      const bad = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: bob, body: { valid: 'yes' } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().error.message, /^valid must be boolean/);
      const noVerdict = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: bob, body: {} });
      assert.match(noVerdict.json().error.message, /^valid is required/);
    });

    it('deletes permanently for the contributor: gone from get, lists, search and export', async () => {
      const unit = await contributeUnit(t.app, alice, { title: 'Ephemeral zebra fact' });
      await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key: bob, body: { valid: true } });
      const other = await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: bob });
      assert.equal(other.statusCode, 403);
      const res = await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: alice });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { data: { id: unit.id, deleted: true } });
      assert.equal((await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).statusCode, 404);
      assert.equal((await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: alice })).statusCode, 404);
      const search = (await call(t.app, 'GET', '/v1/knowledge?q=zebra')).json();
      assert.equal(search.total, 0);
      const listed = (await call(t.app, 'GET', '/v1/knowledge?limit=100')).json().data.map((u: { id: string }) => u.id);
      assert.ok(!listed.includes(unit.id));
      const exported = (await call(t.app, 'GET', '/v1/export/bob', { key: bob })).json().data;
      assert.ok(!exported.validations.some((v: { unit_id: string }) => v.unit_id === unit.id), 'its verdicts are gone');
      const history = exported.reputation.history.filter((h: { target_id: string }) => h.target_id === unit.id);
      assert.equal(history.length, 1, 'reputation already earned stays, naming only the id');
    });

    it('lets an admin delete any unit, but not a read-only owner', async () => {
      const admin = await register(t.app, 'admin', ['read', 'write', 'admin']);
      const unit = await contributeUnit(t.app, alice, { title: 'Admin removes this' });
      const readOnlyAlice = await register(t.app, 'alice', ['read'], 'free', alice);
      const res = await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: readOnlyAlice });
      assert.equal(res.statusCode, 403);
      assert.match(res.json().error.message, /write/);
      assert.equal((await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: admin })).statusCode, 200);
      assert.equal((await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`)).statusCode, 401);
    });
  });
}
