import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { connectSharedCounters, untilConnected } from '../../src/http/redis-counters.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, errorCode, register, testApp, testConfig } from '../helpers/app.js';

const redisUrl = process.env.REG_TEST_REDIS_URL;
const limits = { anonymous: 3, free: 4, pro: 5, enterprise: 6 };

describe('rate limits shared through Redis', { skip: redisUrl ? false : 'REG_TEST_REDIS_URL is not set' }, () => {
  it('holds one budget across two apps, with headers and Retry-After', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const sharedA = connectSharedCounters(redisUrl!, prefix, () => {});
    const sharedB = connectSharedCounters(redisUrl!, prefix, () => {});
    const config = testConfig({ rateLimits: limits });
    const a = await testApp(openSqliteStore('sqlite::memory:'), { config, sharedCounters: sharedA });
    const b = await testApp(openSqliteStore('sqlite::memory:'), { config, sharedCounters: sharedB });
    try {
      assert.ok(await untilConnected(sharedA.redis, 5_000));
      assert.ok(await untilConnected(sharedB.redis, 5_000));
      const statuses = [];
      for (const app of [a.app, b.app, a.app, b.app])
        statuses.push((await call(app, 'GET', '/v1/knowledge')).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const limited = await call(a.app, 'GET', '/v1/knowledge');
      assert.equal(errorCode(limited), 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 60, String(retryAfter));
      const ttl = await sharedA.redis.pttl(`${prefix}rate:ip:127.0.0.1`);
      assert.ok(ttl > 0 && ttl <= 60_000, 'every counter expires with its window');
      // An agent's budget is its own (the anonymous one above is spent), counted across both instances.
      const keyOnA = await register(a.app, 'shared-agent');
      const keyOnB = await register(b.app, 'shared-agent'); // separate stores here; the counter is keyed by agent id
      const agentStatuses = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(i % 2 ? b.app : a.app, 'GET', '/v1/skills', { key: i % 2 ? keyOnB : keyOnA });
        agentStatuses.push(res.statusCode);
      }
      assert.deepEqual(agentStatuses, [200, 200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
      const keys = await sharedA.redis.keys(`${prefix}*`);
      if (keys.length > 0) await sharedA.redis.del(...keys);
      sharedA.redis.disconnect();
      sharedB.redis.disconnect();
    }
  });

  it('fails open with a warning when Redis is unreachable', async () => {
    const warnings: Error[] = [];
    const shared = connectSharedCounters('redis://127.0.0.1:1', 'unreachable:', (error) => warnings.push(error));
    const t = await testApp(openSqliteStore('sqlite::memory:'), {
      config: testConfig({ rateLimits: limits }),
      sharedCounters: shared,
    });
    try {
      for (let i = 0; i < 6; i++) {
        const res = await call(t.app, 'GET', '/v1/knowledge');
        assert.equal(res.statusCode, 200, 'requests are served while Redis is down');
      }
      assert.ok(warnings.length >= 1, 'the outage is logged');
      assert.ok(warnings.length <= 2, 'warnings are throttled, not one per request');
    } finally {
      await t.close();
      shared.redis.disconnect();
    }
  });
});
