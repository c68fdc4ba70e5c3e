import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, errorCode, register, testApp, unitBody, type TestApp } from '../helpers/app.js';

/** A clock the test can move forward. */
function movableClock() {
  let now = Date.parse('2026-11-22T10:00:00.000Z');
  const clock = () => new Date(now++);
  return Object.assign(clock, { advance: (ms: number) => (now += ms) });
}

for (const backend of backends()) {
  describe(`Idempotency-Key [${backend.name}]`, () => {
    let t: TestApp;
    let clock: ReturnType<typeof movableClock>;
    let alice: string;
    let bob: string;
    before(async () => {
      clock = movableClock();
      t = await testApp(await backend.open(), { clock });
      alice = await register(t.app, 'idem-alice');
      bob = await register(t.app, 'idem-bob');
    });
    after(async () => t.close());

    const post = (url: string, key: string | undefined, body: unknown, idem?: string) =>
      call(t.app, 'POST', url, { key, body, headers: idem !== undefined ? { 'idempotency-key': idem } : {} });
    const total = async () => (await call(t.app, 'GET', '/v1/knowledge?limit=1')).json().total as number;
    const score = async (agent: string) =>
      (await call(t.app, 'GET', `/v1/reputation/${agent}`)).json().data.score as number;

    it('returns the original response to a retry, without a second unit or reward', async () => {
      const before = await total();
      const first = await post('/v1/knowledge', alice, unitBody({ title: 'Once only' }), 'k-unit-1');
      assert.equal(first.statusCode, 201);
      const retry = await post('/v1/knowledge', alice, unitBody({ title: 'Once only' }), 'k-unit-1');
      assert.equal(retry.statusCode, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.deepEqual(retry.json(), first.json());
      assert.equal(await total(), before + 1);
      assert.equal(await score('idem-alice'), 0.2);
    });

    it('treats a reordered but equal body as the same request', async () => {
      const body = unitBody({ title: 'Key order' });
      const first = await post('/v1/knowledge', alice, body, 'k-order');
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const retry = await post('/v1/knowledge', alice, reordered, 'k-order');
      assert.equal(retry.json().data.id, first.json().data.id);
    });

    it('answers 409 to the same key with a different body, and writes nothing', async () => {
      await post('/v1/knowledge', alice, unitBody({ title: 'Original' }), 'k-unit-2');
      const before = await total();
      const other = await post('/v1/knowledge', alice, unitBody({ title: 'Different' }), 'k-unit-2');
      assert.equal(other.statusCode, 409);
      assert.equal(errorCode(other), 'CONFLICT');
      assert.equal(await total(), before);
    });

    it('keeps keys per agent, and forgets them after 24 hours', async () => {
      const mine = await post('/v1/knowledge', alice, unitBody({ title: 'Shared key name' }), 'k-shared');
      const theirs = await post('/v1/knowledge', bob, unitBody({ title: 'Shared key name' }), 'k-shared');
      assert.equal(theirs.statusCode, 201);
      assert.notEqual(theirs.json().data.id, mine.json().data.id);
      clock.advance(24 * 60 * 60 * 1000 + 1);
      const later = await post('/v1/knowledge', alice, unitBody({ title: 'Shared key name' }), 'k-shared');
      assert.equal(later.statusCode, 201);
      assert.equal(later.headers['idempotent-replayed'], undefined);
      assert.notEqual(later.json().data.id, mine.json().data.id, 'an expired key does the work again');
      assert.ok((await t.store.purgeIdempotentResponses(clock().toISOString())) >= 1);
    });

    it('runs concurrent retries once', async () => {
      const before = await total();
      const body = unitBody({ title: 'Raced' });
      const answers = await Promise.all(Array.from({ length: 6 }, () => post('/v1/knowledge', bob, body, 'k-race')));
      assert.ok(
        answers.every((a) => a.statusCode === 201),
        answers.map((a) => a.body).join('\n'),
      );
      assert.equal(new Set(answers.map((a) => a.json().data.id)).size, 1);
      assert.equal(await total(), before + 1);
    });

    it('rewards a retried verdict once', async () => {
      const unit = (await post('/v1/knowledge', alice, unitBody({ title: 'Judged' }))).json().data;
      const scoreBefore = await score('idem-bob');
      for (let i = 0; i < 3; i++) {
        const res = await post(`/v1/knowledge/${unit.id}/validate`, bob, { valid: true }, 'k-verdict');
        assert.equal(res.statusCode, 200);
      }
      assert.equal(await score('idem-bob'), scoreBefore + 0.05);
    });

    it('replays a registration, with its key, without keeping the key readable', async () => {
      const body = { agent_id: 'idem-new', scopes: ['read'], tier: 'free' };
      // The answer carries a secret, so the key must be high-entropy: a UUID.
      const idem = '3f1c9a52-7d4e-4b8a-9c2f-5e6d7a8b9c0d';
      const first = await post('/v1/auth/register', undefined, body, idem);
      const retry = await post('/v1/auth/register', undefined, body, idem);
      assert.equal(first.statusCode, 201);
      assert.equal(retry.statusCode, 201);
      assert.equal(retry.json().data.api_key, first.json().data.api_key);
      const apiKey = first.json().data.api_key as string;
      assert.equal((await call(t.app, 'GET', '/v1/export/idem-new', { key: apiKey })).statusCode, 200);
      const saved = await t.store.findIdempotentResponse(
        'ip:127.0.0.1',
        (await import('node:crypto')).createHash('sha256').update(`idempotency-key\u0000${idem}`).digest('hex'),
        '2000-01-01T00:00:00.000Z',
      );
      assert.ok(saved, 'the response is saved');
      assert.ok(!saved.body.includes(apiKey.slice(4)), 'sealed: the raw key is not readable in the database');
    });

    it('replays a revocation instead of answering 404 the second time', async () => {
      const spare = await register(t.app, 'idem-alice', ['read'], 'free', alice);
      const body = { key_prefix: spare.slice(0, 8) };
      assert.equal((await post('/v1/auth/revoke', alice, body, 'k-revoke')).statusCode, 200);
      assert.equal((await post('/v1/auth/revoke', alice, body, 'k-revoke')).statusCode, 200);
      assert.equal((await post('/v1/auth/revoke', alice, body)).statusCode, 404, 'without the key it is a new request');
    });

    it('refuses a malformed key', async () => {
      for (const bad of ['', 'has space', 'x'.repeat(256), 'naïve']) {
        const res = await post('/v1/knowledge', alice, unitBody(), bad);
        assert.equal(res.statusCode, 400, JSON.stringify(bad));
        assert.match(res.json().error.message, /Idempotency-Key/);
      }
    });
  });
}
