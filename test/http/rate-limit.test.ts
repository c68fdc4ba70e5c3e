import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, errorCode, register, testApp, testConfig } from '../helpers/app.js';

const limits = { anonymous: 3, free: 5, pro: 7, enterprise: 9 };

for (const backend of backends())
  describe(`rate limits [${backend.name}]`, () => {
    const limitedApp = async () => testApp(await backend.open(), { config: testConfig({ rateLimits: limits }) });

    it('limits anonymous callers per address, with headers and a 429 envelope', async () => {
      const t = await limitedApp();
      try {
        for (let i = 1; i <= 3; i++) {
          const res = await call(t.app, 'GET', '/v1/knowledge');
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers['x-ratelimit-limit'], '3');
          assert.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
          assert.ok(Number(res.headers['x-ratelimit-reset']) > 0);
        }
        const limited = await call(t.app, 'GET', '/v1/skills');
        assert.equal(limited.statusCode, 429);
        assert.equal(errorCode(limited), 'RATE_LIMITED');
        assert.ok(Number(limited.headers['retry-after']) > 0 && Number(limited.headers['retry-after']) <= 60);
        assert.equal(limited.headers['x-ratelimit-remaining'], '0');
        const elsewhere = await t.app.inject({ method: 'GET', url: '/v1/knowledge', remoteAddress: '10.9.8.7' });
        assert.equal(elsewhere.statusCode, 200, 'another address has its own budget');
        const unknownRoute = await call(t.app, 'GET', '/v1/nowhere');
        assert.equal(unknownRoute.statusCode, 429, 'unknown routes count too');
      } finally {
        await t.close();
      }
    });

    it('exempts registration and health checks', async () => {
      const t = await limitedApp();
      try {
        for (let i = 0; i < 5; i++) await register(t.app, `exempt-${i}`);
        for (let i = 0; i < 5; i++) {
          assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200);
          assert.equal((await call(t.app, 'GET', '/readyz')).statusCode, 200);
        }
        const res = await call(t.app, 'GET', '/healthz');
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
      } finally {
        await t.close();
      }
    });

    it("counts an agent's keys together, at its tier's limit, apart from anonymous traffic", async () => {
      const t = await limitedApp();
      try {
        const first = await register(t.app, 'busy', ['read', 'write'], 'free');
        const second = await register(t.app, 'busy', ['read'], 'free', first);
        for (let i = 0; i < 5; i++) {
          const res = await call(t.app, 'GET', '/v1/knowledge', { key: i % 2 === 0 ? first : second });
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers['x-ratelimit-limit'], '5');
        }
        assert.equal((await call(t.app, 'GET', '/v1/knowledge', { key: second })).statusCode, 429);
        assert.equal((await call(t.app, 'GET', '/v1/knowledge')).statusCode, 200, 'anonymous budget is separate');
        const pro = await register(t.app, 'pro-agent', ['read'], 'pro');
        assert.equal((await call(t.app, 'GET', '/v1/knowledge', { key: pro })).headers['x-ratelimit-limit'], '7');
        const enterprise = await register(t.app, 'big-agent', ['read'], 'enterprise');
        assert.equal(
          (await call(t.app, 'GET', '/v1/knowledge', { key: enterprise })).headers['x-ratelimit-limit'],
          '9',
        );
      } finally {
        await t.close();
      }
    });

    it('counts a client behind a trusted proxy by its X-Forwarded-For address', async () => {
      const t = await testApp(await backend.open(), {
        config: testConfig({ rateLimits: limits, trustProxy: true }),
      });
      try {
        const from = (ip: string) => call(t.app, 'GET', '/v1/knowledge', { headers: { 'x-forwarded-for': ip } });
        for (let i = 0; i < 3; i++) assert.equal((await from('203.0.113.5')).statusCode, 200);
        assert.equal((await from('203.0.113.5')).statusCode, 429);
        assert.equal((await from('203.0.113.6')).statusCode, 200);
      } finally {
        await t.close();
      }
    });
  });
