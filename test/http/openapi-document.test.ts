// The parts of the OpenAPI document that come from the plugins rather than from a route's own schema.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, testApp } from '../helpers/app.js';

describe('the OpenAPI document describes what every route shares', () => {
  it('documents Idempotency-Key and the 409/413/415 answers on every POST, and 503 everywhere', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const doc = (await call(t.app, 'GET', '/v1/openapi.json')).json();
      let posts = 0;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a parsed JSON document
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        for (const [method, operation] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          const schema = operation.responses['503'].content['application/json'].schema;
          const named = schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
          assert.deepEqual(named.required, ['error'], where);
          const header = (operation.parameters ?? []).filter((p: { name: string }) => p.name === 'Idempotency-Key');
          if (method !== 'post') {
            assert.equal(header.length, 0, where);
            continue;
          }
          posts++;
          assert.equal(header.length, 1, where);
          assert.equal(header[0].in, 'header', where);
          for (const status of ['409', '413', '415']) assert.ok(operation.responses[status], `${where} ${status}`);
        }
      }
      assert.equal(posts, 13);
      // Served twice, the document does not grow.
      const again = (await call(t.app, 'GET', '/v1/openapi.json')).json();
      assert.equal(
        again.paths['/v1/knowledge'].post.parameters.length,
        doc.paths['/v1/knowledge'].post.parameters.length,
      );
    } finally {
      await t.close();
    }
  });
});
