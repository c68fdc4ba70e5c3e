import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, contributeUnit, register, testApp, testConfig, unitBody, skillMd, type TestApp } from '../helpers/app.js';

for (const backend of backends()) describe(`the served OpenAPI document [${backend.name}]`, () => {
  it('is OpenAPI 3.1 and lists exactly the routes the app serves', async () => {
    const t = await testApp(await backend.open());
    try {
      const served: string[] = [];
      const res = await call(t.app, 'GET', '/v1/openapi.json');
      assert.equal(res.statusCode, 200);
      const doc = res.json();
      assert.equal(doc.openapi, '3.1.0');
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(item)) served.push(`${method.toUpperCase()} ${path}`);
      }
      const expected = [
        'GET /healthz', 'GET /readyz', 'GET /v1/openapi.json',
        'POST /v1/auth/register', 'POST /v1/auth/revoke',
        'GET /v1/skills', 'POST /v1/skills', 'GET /v1/skills/{id}',
        'GET /v1/knowledge', 'POST /v1/knowledge', 'GET /v1/knowledge/{id}', 'DELETE /v1/knowledge/{id}',
        'POST /v1/knowledge/{id}/validate', 'GET /v1/reputation/{agent_id}', 'GET /v1/export/{agent_id}',
      ];
      assert.deepEqual(served.sort(), expected.sort());
      // Each documented route is served: no 405, and no "route not found" 404.
      for (const route of expected) {
        const [method, path] = route.split(' ') as [string, string];
        const res = await call(t.app, method as 'GET', path.replace(/\{[^}]+\}/g, 'x'));
        assert.notEqual(res.statusCode, 405, route);
        if (res.statusCode === 404) assert.doesNotMatch(res.json().error.message, /^route /, route);
      }
      assert.ok(doc.paths['/v1/knowledge'].post.requestBody, 'request bodies are documented');
      assert.ok(doc.paths['/v1/knowledge'].get.parameters.some((p: { name: string }) => p.name === 'min_quality'));
    } finally {
      await t.close();
    }
  });
});

// Every route that needs a credential is walked with the wrong ones, so a new route cannot forget its checks.
for (const backend of backends()) {
  describe(`every protected route refuses the wrong credentials [${backend.name}]`, () => {
    let t: TestApp;
    let keys: Record<'owner' | 'other' | 'reader' | 'revoked', string>;
    let unitId: string;
    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      const owner = await register(t.app, 'owner');
      const revoked = await register(t.app, 'owner', ['read', 'write'], 'free', owner);
      await call(t.app, 'POST', '/v1/auth/revoke', { key: owner, body: { key_prefix: revoked.slice(0, 8) } });
      keys = { owner, other: await register(t.app, 'other'), reader: await register(t.app, 'owner', ['read'], 'free', owner), revoked };
      unitId = (await contributeUnit(t.app, owner)).id;
    });
    after(async () => t.close());

    type Case = { method: 'GET' | 'POST' | 'DELETE'; url: () => string; body?: () => unknown; expect: Partial<Record<'none' | 'revoked' | 'reader' | 'other', number>> };
    const cases: Case[] = [
      { method: 'POST', url: () => '/v1/auth/revoke', body: () => ({ key_prefix: keys.owner.slice(0, 8) }), expect: { none: 401, revoked: 401, other: 404 } },
      { method: 'POST', url: () => '/v1/skills', body: () => ({ skill_md_content: skillMd(), visibility: 'public' }), expect: { none: 401, revoked: 401, reader: 403 } },
      { method: 'POST', url: () => '/v1/knowledge', body: () => unitBody(), expect: { none: 401, revoked: 401, reader: 403 } },
      { method: 'POST', url: () => `/v1/knowledge/${unitId}/validate`, body: () => ({ valid: true }), expect: { none: 401, revoked: 401 } },
      { method: 'DELETE', url: () => `/v1/knowledge/${unitId}`, expect: { none: 401, revoked: 401, reader: 403, other: 403 } },
      { method: 'GET', url: () => '/v1/export/owner', expect: { none: 401, revoked: 401, other: 403 } },
    ];

    for (const c of cases) {
      it(`${c.method} ${c.url.toString().match(/'([^']+)'|`([^`]+)`/)?.slice(1).find(Boolean)}`, async () => {
        for (const [who, status] of Object.entries(c.expect)) {
          const key = who === 'none' ? undefined : keys[who as keyof typeof keys];
          const res = await call(t.app, c.method, c.url(), { key, body: c.body?.() });
          assert.equal(res.statusCode, status, `${who}: ${res.body}`);
        }
        // The refusals changed nothing: the owner's unit and keys are intact.
        assert.equal((await call(t.app, 'GET', `/v1/knowledge/${unitId}`)).statusCode, 200);
        assert.equal((await call(t.app, 'GET', '/v1/export/owner', { key: keys.owner })).statusCode, 200);
      });
    }
  });
}
