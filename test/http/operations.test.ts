import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { loggerOptions } from '../../src/app.js';
import { backends } from '../helpers/backends.js';
import { call, register, testApp, testConfig } from '../helpers/app.js';

for (const backend of backends()) describe(`operations [${backend.name}]`, () => {
  it('answers health and readiness without credentials', async () => {
    const t = await testApp(await backend.open());
    try {
      assert.deepEqual((await call(t.app, 'GET', '/healthz')).json(), { status: 'ok' });
      const empty = { terms: 0, limit: testConfig().searchVocabulary.total, full: false, items_cut: 0 };
      assert.deepEqual((await call(t.app, 'GET', '/readyz')).json(), {
        status: 'ready',
        search: { pending: 0, indexed: true, model: 'none', vocabulary: { skills: empty, units: empty } },
      });
    } finally {
      await t.close();
    }
  });

  it('gives every response a request id, keeping a plain one the caller sent', async () => {
    const t = await testApp(await backend.open());
    try {
      const mine = await call(t.app, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
      assert.equal(mine.headers['x-request-id'], 'trace-123');
      const odd = await call(t.app, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
      assert.match(String(odd.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    } finally {
      await t.close();
    }
  });

  it('logs JSON lines with request ids and never the key', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const logger = { ...(loggerOptions('info') as object), stream };
    const t = await testApp(await backend.open(), { logger: logger as never });
    try {
      const key = await register(t.app, 'logged');
      await call(t.app, 'GET', '/v1/export/logged', { key, headers: { 'x-request-id': 'req-42' } });
      await call(t.app, 'GET', '/v1/knowledge', { key: `${key}x` });
      const entries = lines.map((l) => JSON.parse(l) as { reqId?: string });
      assert.ok(entries.some((e) => e.reqId === 'req-42'));
      assert.ok(lines.length > 0);
      for (const line of lines) assert.ok(!line.includes(key.slice(4)), `raw key in log: ${line}`);
    } finally {
      await t.close();
    }
  });
});
