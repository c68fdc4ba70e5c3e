// Reputation cannot be farmed: not through one's own units, repeated verdicts, several keys of one
// agent, or retried requests. Each way is tried and the profile must show exactly one reward.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeUnit, errorCode, register, testApp, unitBody, type TestApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`reputation farming [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(await backend.open());
    });
    after(async () => t.close());

    const profile = async (agent: string) => (await call(t.app, 'GET', `/v1/reputation/${agent}`)).json().data;

    it('earns one validation reward per unit, whatever keys, verdicts and retries are used', async () => {
      const author = await register(t.app, 'farm-author');
      const unit = await contributeUnit(t.app, author, { title: 'A unit to farm' });
      const first = await register(t.app, 'farmer', ['read', 'write']);
      const second = await register(t.app, 'farmer', ['read'], 'free', first);
      const third = await register(t.app, 'farmer', ['read'], 'free', first);
      const verdicts = [
        { key: first, body: { valid: true } },
        { key: second, body: { valid: false, feedback: 'second key, other verdict' } },
        { key: third, body: { valid: true }, headers: { 'idempotency-key': 'farm-1' } },
        { key: third, body: { valid: true }, headers: { 'idempotency-key': 'farm-1' } },
        { key: first, body: { valid: true }, headers: { 'idempotency-key': 'farm-2' } },
      ];
      for (const v of verdicts) {
        const res = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, v);
        assert.equal(res.statusCode, 200, res.body);
      }
      const farmer = await profile('farmer');
      assert.equal(farmer.score, 0.05);
      assert.equal(farmer.validations, 1);
      assert.deepEqual(
        farmer.history.map((h: { action: string }) => h.action),
        ['validate_knowledge'],
      );
      // One verdict per agent: the last one stands, counted once on the unit.
      const after = (await call(t.app, 'GET', `/v1/knowledge/${unit.id}`)).json().data;
      assert.deepEqual(after.validations, { valid: 1, invalid: 0 });
    });

    it('refuses a verdict on its own unit from any key of the contributor', async () => {
      const owner = await register(t.app, 'self-validator');
      const other = await register(t.app, 'self-validator', ['read'], 'free', owner);
      const unit = await contributeUnit(t.app, owner, { title: 'My own unit' });
      for (const key of [owner, other]) {
        const res = await call(t.app, 'POST', `/v1/knowledge/${unit.id}/validate`, { key, body: { valid: true } });
        assert.equal(res.statusCode, 403);
        assert.equal(errorCode(res), 'FORBIDDEN');
      }
      const me = await profile('self-validator');
      assert.equal(me.score, 0.2);
      assert.equal(me.validations, 0);
    });

    it('rewards a retried contribution once', async () => {
      const key = await register(t.app, 'retrier');
      const body = unitBody({ title: 'Retried contribution' });
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const res = await call(t.app, 'POST', '/v1/knowledge', {
          key,
          body,
          headers: { 'idempotency-key': 'same-unit' },
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.add(res.json().data.id);
      }
      assert.equal(ids.size, 1);
      const me = await profile('retrier');
      assert.deepEqual([me.score, me.contributions], [0.2, 1]);
    });
  });
}
