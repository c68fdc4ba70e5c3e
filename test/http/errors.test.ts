import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { UnstorableTextError } from '../../src/store/store.js';
import { call, errorCode, register, testApp, type TestApp } from '../helpers/app.js';

describe('the error envelope, from routes and from the framework', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp(new SqliteStore('sqlite::memory:'));
    key = await register(t.app, 'envelope');
  });
  after(async () => t.close());

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await call(t.app, 'GET', '/v1/nothing-here');
    assert.equal(res.statusCode, 404);
    assert.equal(errorCode(res), 'NOT_FOUND');
    assert.equal((await call(t.app, 'GET', '/')).statusCode, 404);
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await call(t.app, 'PUT', '/v1/knowledge/ku_x');
    assert.equal(res.statusCode, 405);
    assert.equal(errorCode(res), 'METHOD_NOT_ALLOWED');
    assert.equal(res.headers.allow, 'DELETE, GET, HEAD');
    const patch = await call(t.app, 'PATCH', '/v1/auth/register');
    assert.equal(patch.statusCode, 405);
    assert.equal(patch.headers.allow, 'POST');
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await call(t.app, 'POST', '/v1/auth/register', {
      body: '{"agent_id": "x",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(errorCode(res), 'VALIDATION_ERROR');
    assert.match(res.json().error.message, /JSON/);
    const empty = await call(t.app, 'POST', '/v1/knowledge', { key, body: '', headers: { 'content-type': 'application/json' } });
    assert.equal(empty.statusCode, 400);
    assert.equal(errorCode(empty), 'VALIDATION_ERROR');
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await call(t.app, 'POST', '/v1/knowledge', {
      key,
      body: JSON.stringify({ title: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 413);
    assert.equal(errorCode(res), 'PAYLOAD_TOO_LARGE');
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await call(t.app, 'POST', '/v1/auth/register', { body: 'agent_id=x', headers: { 'content-type': type } });
      assert.equal(res.statusCode, 415, type);
      assert.equal(errorCode(res), 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('answers text the store cannot keep with 400 VALIDATION_ERROR, not a 500', async () => {
    // The HTTP layer refuses such text first; this is the store's second line of defence (PostgreSQL).
    const store = new SqliteStore('sqlite::memory:');
    store.listUnits = async () => {
      throw new UnstorableTextError('domain contains characters that cannot be stored (NUL or invalid Unicode)');
    };
    const refusing = await testApp(store);
    try {
      const res = await call(refusing.app, 'GET', '/v1/knowledge?domain=anything');
      assert.equal(res.statusCode, 400);
      assert.equal(errorCode(res), 'VALIDATION_ERROR');
      assert.match(res.json().error.message, /^domain contains characters that cannot be stored/);
    } finally {
      await refusing.close();
    }
  });

  it('never leaks internals in a 500', async () => {
    const broken = await testApp(new SqliteStore('sqlite::memory:'));
    const k = await register(broken.app, 'breaker');
    await broken.store.close(); // every query now fails inside the store
    const res = await call(broken.app, 'GET', '/v1/knowledge', { headers: {} });
    assert.equal(res.statusCode, 500);
    assert.equal(errorCode(res), 'INTERNAL_ERROR');
    assert.doesNotMatch(res.body, /sqlite|SELECT|at .*\.ts/i);
    const ready = await call(broken.app, 'GET', '/readyz');
    assert.equal(ready.statusCode, 503);
    assert.equal(errorCode(ready), 'UNAVAILABLE');
    assert.ok(ready.headers['retry-after']);
    assert.ok(k);
    await broken.app.close();
  });
});
