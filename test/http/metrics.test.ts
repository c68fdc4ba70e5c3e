// Prometheus metrics: off by default, for admin keys only with REG_METRICS=admin, on a port of their own
// with port:N; every answer is counted by route and status, refusals and search figures too.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { metricsServer } from '../../src/http/metrics.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { StoreUnavailableError } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { call, contributeUnit, register, testApp, testConfig, type TestApp } from '../helpers/app.js';

/** The value of one sample in a Prometheus text answer, or undefined. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('metrics', () => {
  it('are off by default: no /metrics', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      assert.equal(t.app.metrics, null);
      assert.equal((await call(t.app, 'GET', '/metrics')).statusCode, 404);
    } finally {
      await t.close();
    }
  });

  describe('REG_METRICS=admin', () => {
    let t: TestApp;
    let admin: string;
    let agent: string;
    before(async () => {
      const config = testConfig({
        metrics: { mode: 'admin' },
        openAdminRegistration: true,
        rateLimits: { anonymous: 2, free: 1000, pro: 1000, enterprise: 1000 },
      });
      t = await testApp(openSqliteStore('sqlite::memory:'), { config });
      admin = await register(t.app, 'operator', ['read', 'write', 'admin'], 'enterprise');
      agent = await register(t.app, 'someone', ['read', 'write'], 'pro');
    });
    after(async () => t.close());

    it('answer only an admin key', async () => {
      assert.equal((await call(t.app, 'GET', '/metrics')).statusCode, 401);
      assert.equal((await call(t.app, 'GET', '/metrics', { key: agent })).statusCode, 403);
      const res = await call(t.app, 'GET', '/metrics', { key: admin });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('count a request by route and status, with its latency', async () => {
      const line = 'registry_http_requests_total{method="POST",route="/v1/knowledge",status="201"}';
      const before = sample((await call(t.app, 'GET', '/metrics', { key: admin })).body, line) ?? 0;
      await contributeUnit(t.app, agent);
      await contributeUnit(t.app, agent, { title: 'Another unit about caching headers' });
      const text = (await call(t.app, 'GET', '/metrics', { key: admin })).body;
      assert.equal(sample(text, line), before + 2);
      assert.equal(
        sample(text, 'registry_http_request_duration_seconds_count{method="POST",route="/v1/knowledge",status="201"}'),
        before + 2,
      );
      assert.ok(sample(text, 'registry_http_requests_total{method="GET",route="/metrics",status="200"}')! >= 1);
    });

    it('count rate-limit refusals', async () => {
      let refused = 0;
      for (let i = 0; i < 4; i++) if ((await call(t.app, 'GET', '/v1/knowledge')).statusCode === 429) refused++;
      assert.ok(refused >= 2);
      const text = (await call(t.app, 'GET', '/metrics', { key: admin })).body;
      assert.equal(sample(text, 'registry_rate_limit_refusals_total{route="/v1/knowledge"}'), refused);
    });

    it("show the search index's figures, the store's errors and the event loop's lag", async () => {
      const text = (await call(t.app, 'GET', '/metrics', { key: admin })).body;
      assert.equal(sample(text, 'registry_search_index_ready'), 1);
      assert.equal(sample(text, 'registry_search_pending_items'), 0);
      assert.ok(sample(text, 'registry_search_index_terms{kind="unit"}')! > 0);
      assert.ok(sample(text, 'registry_search_index_built_timestamp_seconds')! > 1_700_000_000);
      assert.equal(sample(text, 'registry_store_errors_total'), 0);
      assert.equal(sample(text, 'registry_redis_errors_total'), 0);
      assert.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined);
    });
  });

  it('count requests the database failed', async () => {
    const store = openSqliteStore('sqlite::memory:');
    const failing = Object.assign(Object.create(null), store, {
      getUnit: async () => Promise.reject(new StoreUnavailableError('connection refused')),
    }) as typeof store;
    const t = await testApp(failing, { config: testConfig({ metrics: { mode: 'port', port: 9464 } }) });
    try {
      assert.equal((await call(t.app, 'GET', '/v1/knowledge/ku_AAAAAAAAAAAAAAAAAAAAAA')).statusCode, 503);
      const text = await t.app.metrics!.registry.metrics();
      assert.equal(sample(text, 'registry_store_errors_total'), 1);
      assert.equal(
        sample(text, 'registry_http_requests_total{method="GET",route="/v1/knowledge/:id",status="503"}'),
        1,
      );
    } finally {
      await t.close();
    }
  });

  it('REG_METRICS=port:N serves them on their own port, not on the API', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'), {
      config: testConfig({ metrics: { mode: 'port', port: 9464 } }),
    });
    const server = metricsServer(t.app.metrics!);
    try {
      assert.equal((await call(t.app, 'GET', '/metrics')).statusCode, 404);
      await call(t.app, 'GET', '/healthz');
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/metrics`);
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.equal(sample(text, 'registry_http_requests_total{method="GET",route="/healthz",status="200"}'), 1);
      // The first scrape already holds the search figures.
      assert.equal(sample(text, 'registry_search_index_ready'), 1);
      assert.equal(sample(text, 'registry_search_pending_items'), 0);
      assert.equal(sample(text, 'registry_search_index_terms{kind="unit"}'), 0);
      // and every scrape reads them afresh.
      await contributeUnit(t.app, await register(t.app, 'scraped'));
      assert.ok(sample(await (await fetch(`${base}/metrics`)).text(), 'registry_search_index_terms{kind="unit"}')! > 0);
      assert.equal((await fetch(`${base}/v1/knowledge`)).status, 404);
    } finally {
      server.close();
      await t.close();
    }
  });

  for (const backend of backends().filter((b) => b.name === 'postgres')) {
    it('show the PostgreSQL pool', async () => {
      const t = await testApp(await backend.open(), { config: testConfig({ metrics: { mode: 'port', port: 9464 } }) });
      try {
        await call(t.app, 'GET', '/v1/knowledge');
        const text = await t.app.metrics!.registry.metrics();
        assert.ok(sample(text, 'registry_database_pool_connections{state="total"}')! >= 1);
        assert.ok(sample(text, 'registry_database_pool_connections{state="idle"}') !== undefined);
        assert.ok(sample(text, 'registry_database_pool_connections{state="waiting"}') !== undefined);
      } finally {
        await t.close();
      }
    });
  }
});
