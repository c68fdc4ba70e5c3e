// The page at /docs: the package's real version, the document the API documents (/v1/openapi.json) as the
// one it loads and shows, and its own routes outside the rate limits (they are not API calls).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, testApp, testConfig } from '../helpers/app.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the API page at /docs', () => {
  it("loads /v1/openapi.json, whose version is the package's", async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const initializer = await call(t.app, 'GET', '/docs/static/swagger-initializer.js');
      assert.equal(initializer.statusCode, 200);
      assert.match(initializer.body, /url: resolveUrl\('\.\.\/v1\/openapi\.json'\)/);
      assert.doesNotMatch(initializer.body, /resolveUrl\('\.\/json'\)/);
      const document = (await call(t.app, 'GET', '/v1/openapi.json')).json();
      assert.equal(document.info.version, PACKAGE.version);
    } finally {
      await t.close();
    }
  });

  it('costs one rate-limited request per visit: the page and its assets are not API calls', async () => {
    const limits = { anonymous: 2, free: 2, pro: 2, enterprise: 2 };
    const t = await testApp(openSqliteStore('sqlite::memory:'), { config: testConfig({ rateLimits: limits }) });
    try {
      const page = await call(t.app, 'GET', '/docs');
      const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(assets.length >= 5);
      // Three visits' worth of page loads, more than the whole budget of 2.
      for (let visit = 0; visit < 3; visit++) {
        for (const url of ['/docs', '/docs/', '/docs/static/swagger-initializer.js', ...assets]) {
          const res = await call(t.app, 'GET', url);
          assert.equal(res.statusCode, 200, url);
          assert.equal(res.headers['x-ratelimit-limit'], undefined, `${url} is not counted`);
        }
      }
      const spec = await call(t.app, 'GET', '/v1/openapi.json');
      assert.equal(spec.statusCode, 200);
      assert.equal(spec.headers['x-ratelimit-remaining'], '1', 'the document is the one API call');
      assert.equal(
        (await call(t.app, 'GET', '/v1/skills')).headers['x-ratelimit-remaining'],
        '0',
        'API routes are still counted',
      );
      assert.equal((await call(t.app, 'GET', '/v1/skills')).statusCode, 429);
    } finally {
      await t.close();
    }
  });
});
