import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { loggerOptions } from '../../src/app.js';
import { backends } from '../helpers/backends.js';
import { call, register, testApp, testConfig } from '../helpers/app.js';

for (const backend of backends())
  describe(`operations [${backend.name}]`, () => {
    it('answers health and readiness without credentials', async () => {
      const t = await testApp(await backend.open());
      try {
        assert.deepEqual((await call(t.app, 'GET', '/healthz')).json(), { status: 'ok' });
        const empty = { terms: 0, limit: testConfig().searchVocabulary.total, full: false, items_cut: 0 };
        const nothing = { items: 0, postings: 0, vectors: 0, vector_bytes: 0, bytes_per_item: 0, bytes_per_posting: 0 };
        const ready = (await call(t.app, 'GET', '/readyz')).json();
        const { lexical_bytes: skillBytes, ...skills } = ready.search.memory.skills;
        const { lexical_bytes: unitBytes, ...units } = ready.search.memory.units;
        assert.ok(skillBytes > 0 && unitBytes > 0, 'an empty index still holds its arrays');
        assert.deepEqual(
          { ...ready, search: { ...ready.search, memory: { skills, units } } },
          {
            status: 'ready',
            search: {
              pending: 0,
              indexed: true,
              model: 'none',
              vocabulary: { skills: empty, units: empty },
              memory: { skills: nothing, units: nothing },
            },
          },
        );
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

    it('logs JSON lines with request ids and never a key or token, wherever a client puts one', async () => {
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
        const jwt = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsb2dnZWQifQ.${'s'.repeat(40)}`;
        await call(t.app, 'GET', '/v1/export/logged', { key, headers: { 'x-request-id': 'req-42' } });
        await call(t.app, 'GET', '/v1/knowledge', { key: `${key}x` });
        // Where a client should never put a key, and some do: the query string, an unknown path, a token.
        await call(t.app, 'GET', `/v1/knowledge?api_key=${key}&q=cache`);
        await call(t.app, 'GET', `/v1/nowhere/${key}?token=${jwt}`);
        await call(t.app, 'GET', '/v1/knowledge', { headers: { authorization: `Bearer ${jwt}` } });
        const entries = lines.map((l) => JSON.parse(l) as { reqId?: string; req?: { url?: string } });
        assert.ok(entries.some((e) => e.reqId === 'req-42'));
        const urls = entries.flatMap((e) => (e.req?.url ? [e.req.url] : []));
        assert.ok(urls.includes(`/v1/knowledge?api_key=${key.slice(0, 8)}[redacted]&q=cache`), urls.join('\n'));
        for (const line of lines) {
          assert.ok(!line.includes(key.slice(8)), `raw key in log: ${line}`);
          assert.ok(!line.includes('s'.repeat(40)), `token in log: ${line}`);
          assert.ok(!/authorization/i.test(line), `headers in log: ${line}`);
        }
      } finally {
        await t.close();
      }
    });
  });
