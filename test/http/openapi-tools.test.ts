// What tools need from the OpenAPI document: operation ids, named schemas, security per operation, servers,
// response headers and described answers; and the page at /docs that shows it, served without a CDN.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NAMED_SCHEMAS } from '../../src/http/schemas.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, register, testApp, unitBody, type TestApp } from '../helpers/app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a parsed JSON document
type Doc = any;

describe('the OpenAPI document, for tools', () => {
  let t: TestApp;
  let doc: Doc;
  before(async () => {
    t = await testApp(openSqliteStore('sqlite::memory:'));
    doc = (await call(t.app, 'GET', '/v1/openapi.json')).json();
  });
  after(async () => t.close());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        where: `${method.toUpperCase()} ${path}`,
        path,
        method,
        operation,
      })),
    );

  it('gives every operation a unique operationId', () => {
    const ids = operations().map((o) => o.operation.operationId);
    assert.ok(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      JSON.stringify(ids),
    );
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(doc.paths['/v1/skills/{id}'].get.operationId, 'getSkill');
  });

  it('names the schemas a client needs and refers to them', () => {
    for (const name of [
      'Skill',
      'SkillSummary',
      'KnowledgeUnit',
      'KnowledgeUnitSummary',
      'KnowledgeUnitInput',
      'ReputationProfile',
      'Error',
    ]) {
      assert.ok(doc.components.schemas[name], name);
    }
    const skill = doc.paths['/v1/skills/{id}'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(skill, { $ref: '#/components/schemas/SkillResponse' });
    assert.deepEqual(doc.components.schemas.SkillResponse.properties.data, { $ref: '#/components/schemas/Skill' });
    assert.deepEqual(doc.components.schemas.SkillPage.properties.data.items, {
      $ref: '#/components/schemas/SkillSummary',
    });
    assert.deepEqual(doc.paths['/v1/knowledge'].post.requestBody.content['application/json'].schema, {
      $ref: '#/components/schemas/KnowledgeUnitInput',
    });
    assert.deepEqual(doc.paths['/v1/skills'].get.responses['400'].content['application/json'].schema, {
      $ref: '#/components/schemas/Error',
    });
    // Every $ref points at a schema the document has.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const target of new Set(refs)) assert.ok(doc.components.schemas[target.split('/').pop()!], target);
  });

  it('names schemas without $id, so validation and serialization are untouched', async () => {
    for (const [name, schema] of Object.entries(NAMED_SCHEMAS))
      assert.equal((schema as { $id?: string }).$id, undefined, name);
    // The same unit schema validates in several routes, in one app and a second one.
    const second = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      for (const app of [t.app, second.app]) {
        const key = await register(app, `named-${app === t.app ? 1 : 2}`);
        const res = await call(app, 'POST', '/v1/knowledge', { key, body: unitBody({ extra: 1 }) });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.message, 'extra is not a known field');
        assert.equal((await call(app, 'POST', '/v1/knowledge', { key, body: unitBody() })).statusCode, 201);
        const bad = await call(app, 'GET', '/v1/knowledge?limit=500');
        assert.equal(bad.statusCode, 400);
        assert.match(bad.json().error.message, /limit/);
      }
    } finally {
      await second.close();
    }
  });

  it('declares security on every operation: optional auth as the alternatives it is', () => {
    for (const { where, path, operation } of operations()) {
      assert.ok(Array.isArray(operation.security), where);
      if (!path.startsWith('/v1/')) assert.deepEqual(operation.security, [], where);
    }
    assert.deepEqual(doc.paths['/v1/skills'].get.security, [{}, { bearerAuth: [] }]);
    assert.deepEqual(doc.paths['/v1/skills'].post.security, [{ bearerAuth: [] }]);
    assert.deepEqual(doc.servers, [{ url: '/', description: 'The registry that serves this document' }]);
  });

  it('asks for a key exactly where the route needs a caller, and tags every /v1 operation', () => {
    const documented = new Map(operations().map((o) => [o.where, o.operation]));
    let protectedRoutes = 0;
    for (const route of t.app.routeCatalogue.routes) {
      const operation = documented.get(
        `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}')}`,
      );
      if (!operation || !route.url.startsWith('/v1/')) continue;
      const needsCaller = route.access !== 'public';
      if (needsCaller) protectedRoutes++;
      const where = `${route.method} ${route.url}`;
      assert.deepEqual(operation.security, needsCaller ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }], where);
      assert.equal(operation.tags?.length, 1, where);
    }
    assert.ok(protectedRoutes >= 11, `${protectedRoutes} protected routes found`);
  });

  it('documents the rate-limit, Retry-After and WWW-Authenticate headers, and describes every answer', () => {
    const list = doc.paths['/v1/skills'].get.responses;
    assert.deepEqual(Object.keys(list['200'].headers).sort(), [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
    assert.ok(list['429'].headers['Retry-After']);
    assert.ok(doc.paths['/v1/skills'].post.responses['401'].headers['WWW-Authenticate']);
    assert.ok(doc.components.headers['X-RateLimit-Reset'].schema);
    assert.equal(doc.paths['/healthz'].get.responses['200'].headers, undefined, 'health checks are not rate limited');
    assert.equal(
      doc.paths['/v1/auth/register'].post.responses['201'].headers,
      undefined,
      'registration is not rate limited',
    );
    for (const { where, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Doc>)) {
        assert.ok(
          response.description && !/^(Default Response|Error envelope)$/.test(response.description),
          `${where} ${status}`,
        );
      }
    }
  });

  it('leaves /mcp and /docs out: they are not REST operations', () => {
    assert.equal(doc.paths['/mcp'], undefined);
    assert.ok(!Object.keys(doc.paths).some((path) => path.startsWith('/docs')));
  });
});

describe('the API page at /docs', () => {
  it('serves Swagger UI and its assets from the app, with a policy that loads nothing from elsewhere', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const page = await call(t.app, 'GET', '/docs');
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /text\/html/);
      const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(assets.length >= 5);
      for (const asset of assets) {
        assert.ok(asset.startsWith('/docs/'), `served by the app: ${asset}`);
        assert.equal((await call(t.app, 'GET', asset)).statusCode, 200, asset);
      }
      const csp = page.headers['content-security-policy'] as string;
      assert.match(csp, /default-src 'self'/);
      assert.doesNotMatch(csp, /https:|\*/);
      const initializer = await call(t.app, 'GET', '/docs/static/swagger-initializer.js');
      assert.match(initializer.body, /validatorUrl: null/);
      assert.equal((await call(t.app, 'GET', '/docs/json')).json().openapi, '3.1.0');
    } finally {
      await t.close();
    }
  });
});
