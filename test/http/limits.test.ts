import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends, type Backend } from '../helpers/backends.js';
import type { Store } from '../../src/store/store.js';
import { call, errorCode, register, testApp, testConfig } from '../helpers/app.js';

/** A store whose list calls wait until the test opens the gate. */
async function gatedStore(backend: Backend): Promise<{ store: Store; open: () => void; waiting: () => number }> {
  const inner = await backend.open();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      if (name === 'listUnits') {
        return async (...args: Parameters<Store['listUnits']>) => {
          waiting++;
          await gate;
          return target.listUnits(...args);
        };
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, open: release, waiting: () => waiting };
}

for (const backend of backends())
  describe(`resource limits [${backend.name}]`, () => {
    it('caps the work in flight, answering 503 with Retry-After beyond it', async () => {
      const gated = await gatedStore(backend);
      const t = await testApp(gated.store, { limits: { maxInFlight: 2, maxEventLoopDelayMs: 0 } });
      try {
        const held = [call(t.app, 'GET', '/v1/knowledge'), call(t.app, 'GET', '/v1/knowledge')];
        while (gated.waiting() < 2) await new Promise((r) => setImmediate(r));
        const shed = await call(t.app, 'GET', '/v1/skills');
        assert.equal(shed.statusCode, 503);
        assert.equal(errorCode(shed), 'UNAVAILABLE');
        assert.equal(shed.headers['retry-after'], '2');
        assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200, 'probes are not counted');
        assert.equal((await call(t.app, 'GET', '/readyz')).statusCode, 200, 'probes are not counted');
        gated.open();
        for (const res of await Promise.all(held)) assert.equal(res.statusCode, 200);
        for (let i = 0; i < 3; i++)
          assert.equal((await call(t.app, 'GET', '/v1/skills')).statusCode, 200, 'capacity comes back');
      } finally {
        await t.close();
      }
    });

    it('sheds load with 503 and Retry-After while the event loop lags, and recovers', async () => {
      const t = await testApp(await backend.open(), { limits: { maxEventLoopDelayMs: 200 } });
      try {
        assert.equal((await call(t.app, 'GET', '/v1/skills')).statusCode, 200);
        // The event loop stays stuck, as under a flood of synchronous work, in 400 ms turns: the delay monitor
        // averages its samples over an interval, so a single stall can be diluted by the quiet turns after it.
        const stall = (ms: number) => {
          const until = Date.now() + ms;
          while (Date.now() < until);
        };
        stall(1_500);
        let shed = await call(t.app, 'GET', '/v1/skills');
        for (let i = 0; i < 20 && shed.statusCode !== 503; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          stall(400);
          shed = await call(t.app, 'GET', '/v1/skills');
        }
        assert.equal(shed.statusCode, 503);
        assert.equal(errorCode(shed), 'UNAVAILABLE');
        assert.equal(shed.headers['retry-after'], '2');
        assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200, 'a lagging instance is alive');
        await new Promise((resolve) => setTimeout(resolve, 2_500)); // two calm samples later
        assert.equal((await call(t.app, 'GET', '/v1/skills')).statusCode, 200, 'it serves again');
      } finally {
        await t.close();
      }
    });

    it('forgets the least recently seen rate-limit callers beyond its bound', async () => {
      const limits = { anonymous: 2, free: 2, pro: 2, enterprise: 2 };
      const t = await testApp(await backend.open(), {
        config: testConfig({ rateLimits: limits }),
        limits: { rateLimitCallers: 5 },
      });
      try {
        const from = (ip: string) => t.app.inject({ method: 'GET', url: '/v1/knowledge', remoteAddress: ip });
        assert.equal((await from('192.0.2.1')).headers['x-ratelimit-remaining'], '1');
        for (let i = 2; i <= 7; i++) await from(`192.0.2.${i}`);
        assert.equal(
          (await from('192.0.2.1')).headers['x-ratelimit-remaining'],
          '1',
          'its counter was evicted, not kept forever',
        );
      } finally {
        await t.close();
      }
    });

    it('limits registrations per address per hour only when REG_REGISTER_LIMIT is set', async () => {
      const t = await testApp(await backend.open(), { config: testConfig({ registerLimitPerHour: 2 }) });
      try {
        await register(t.app, 'reg-one');
        await register(t.app, 'reg-two');
        const third = await call(t.app, 'POST', '/v1/auth/register', {
          body: { agent_id: 'reg-three', scopes: ['read'], tier: 'free' },
        });
        assert.equal(third.statusCode, 429);
        assert.equal(errorCode(third), 'RATE_LIMITED');
        assert.ok(Number(third.headers['retry-after']) > 60, 'an hourly window');
        const elsewhere = await t.app.inject({
          method: 'POST',
          url: '/v1/auth/register',
          payload: { agent_id: 'reg-three', scopes: ['read'], tier: 'free' },
          remoteAddress: '198.51.100.7',
        });
        assert.equal(elsewhere.statusCode, 201);
        assert.equal((await call(t.app, 'GET', '/v1/knowledge')).statusCode, 200, 'other routes keep their own budget');
      } finally {
        await t.close();
      }
    });
  });
