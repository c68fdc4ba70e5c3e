import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeSkill,
  contributeUnit,
  register,
  testApp,
  testConfig,
  unitBody,
  skillMd,
  type TestApp,
} from '../helpers/app.js';

for (const backend of backends())
  describe(`the served OpenAPI document [${backend.name}]`, () => {
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
          'GET /healthz',
          'GET /readyz',
          'GET /v1/openapi.json',
          'POST /v1/auth/register',
          'POST /v1/auth/revoke',
          'GET /v1/auth/keys',
          'GET /v1/auth/whoami',
          'GET /v1/skills',
          'POST /v1/skills',
          'GET /v1/skills/{id}',
          'DELETE /v1/skills/{id}',
          'GET /v1/skills/{id}/versions',
          'GET /v1/skills/{id}/versions/{version}',
          'GET /v1/skills/{id}/files/{path}',
          'GET /v1/skills/{id}/versions/{version}/files/{path}',
          'GET /v1/skills/{id}/versions/{version}/archive.zip',
          'POST /v1/skills/{id}/versions/{version}/yank',
          'POST /v1/skills/{id}/versions/{version}/unyank',
          'POST /v1/skills/{id}/visibility',
          'GET /.well-known/agent-skills/index.json',
          'GET /v1/knowledge',
          'POST /v1/knowledge',
          'GET /v1/knowledge/{id}',
          'DELETE /v1/knowledge/{id}',
          'POST /v1/knowledge/{id}/validate',
          'GET /v1/reputation/{agent_id}',
          'GET /v1/export/{agent_id}',
          'POST /v1/reports',
          'POST /v1/moderation/appeals',
          'GET /v1/moderation/reports',
          'POST /v1/moderation/decisions',
          'GET /v1/moderation/log',
          'POST /v1/advisories',
          'GET /v1/advisories',
          'GET /v1/advisories/{id}',
          'POST /v1/advisories/query',
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

// Every route that needs a credential is walked with the wrong ones. The routes come from the app's own
// route table, so a new protected route fails here until it has a fixture, and cannot forget its checks.
for (const backend of backends()) {
  describe(`every protected route refuses the wrong credentials [${backend.name}]`, () => {
    let t: TestApp;
    let keys: Record<'owner' | 'other' | 'reader' | 'revoked', string>;
    let unitId: string;
    let skillId: string;
    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      const owner = await register(t.app, 'owner');
      const revoked = await register(t.app, 'owner', ['read', 'write'], 'free', owner);
      await call(t.app, 'POST', '/v1/auth/revoke', { key: owner, body: { key_prefix: revoked.slice(0, 8) } });
      keys = {
        owner,
        other: await register(t.app, 'other'),
        reader: await register(t.app, 'owner', ['read'], 'free', owner),
        revoked,
      };
      unitId = (await contributeUnit(t.app, owner)).id;
      skillId = (await contributeSkill(t.app, owner)).id;
    });
    after(async () => t.close());

    // How to call each protected route on the owner's objects, and what the owner's read-only key and
    // another agent's key must hear (no credential and a revoked one always hear 401).
    type Fixture = { url: () => string; body?: () => unknown; expect: Partial<Record<'reader' | 'other', number>> };
    const fixtures: Record<string, Fixture> = {
      'POST /v1/auth/revoke': {
        url: () => '/v1/auth/revoke',
        body: () => ({ key_prefix: keys.owner.slice(0, 8) }),
        expect: { other: 404 },
      },
      'GET /v1/auth/keys': { url: () => '/v1/auth/keys', expect: {} },
      'GET /v1/auth/whoami': { url: () => '/v1/auth/whoami', expect: {} },
      'POST /v1/skills': {
        url: () => '/v1/skills',
        body: () => ({ skill_md_content: skillMd(), visibility: 'public' }),
        expect: { reader: 403 },
      },
      'POST /v1/knowledge': { url: () => '/v1/knowledge', body: () => unitBody(), expect: { reader: 403 } },
      'POST /v1/knowledge/:id/validate': {
        url: () => `/v1/knowledge/${unitId}/validate`,
        body: () => ({ valid: true }),
        expect: {},
      },
      'DELETE /v1/knowledge/:id': { url: () => `/v1/knowledge/${unitId}`, expect: { reader: 403, other: 403 } },
      'GET /v1/export/:agent_id': { url: () => '/v1/export/owner', expect: { other: 403 } },
      'DELETE /v1/skills/:id': { url: () => `/v1/skills/${skillId}`, expect: { reader: 403, other: 403 } },
      'POST /v1/skills/:id/versions/:version/yank': {
        url: () => `/v1/skills/${skillId}/versions/1.0.0/yank`,
        expect: { reader: 403, other: 403 },
      },
      'POST /v1/skills/:id/versions/:version/unyank': {
        url: () => `/v1/skills/${skillId}/versions/1.0.0/unyank`,
        expect: { reader: 403, other: 403 },
      },
      'POST /v1/skills/:id/visibility': {
        url: () => `/v1/skills/${skillId}/visibility`,
        body: () => ({ visibility: 'private' }),
        expect: { reader: 403, other: 403 },
      },
      // The owner's key reports its own unit (403 for itself: the reader key is the owner's); another agent
      // may report it, so its call is left to the moderation tests (it would file a report).
      'POST /v1/reports': {
        url: () => '/v1/reports',
        body: () => ({ target: unitId, reason: 'spam' }),
        expect: { reader: 403 },
      },
      'POST /v1/moderation/appeals': {
        url: () => '/v1/moderation/appeals',
        body: () => ({ target: unitId, message: 'please' }),
        expect: { reader: 409, other: 403 },
      },
      'GET /v1/moderation/reports': { url: () => '/v1/moderation/reports', expect: { reader: 403, other: 403 } },
      'POST /v1/moderation/decisions': {
        url: () => '/v1/moderation/decisions',
        body: () => ({ target: unitId, action: 'hold', reason: 'malware' }),
        expect: { reader: 403, other: 403 },
      },
      'POST /v1/advisories': {
        url: () => '/v1/advisories',
        body: () => ({ skill_id: skillId, versions: '*', severity: 'low', summary: 's', details: 'd' }),
        expect: { reader: 403, other: 403 },
      },
    };

    it('has a fixture for every protected route the app serves, and none for a route it does not', () => {
      const routes = t.app.routeCatalogue.routes;
      const protectedRoutes = routes.filter((r) => r.access !== 'public').map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(protectedRoutes.sort(), Object.keys(fixtures).sort());
    });

    for (const [route, fixture] of Object.entries(fixtures)) {
      const method = route.split(' ')[0] as 'GET' | 'POST' | 'DELETE';
      it(route, async () => {
        const access = t.app.routeCatalogue.routes.find((r) => `${r.method} ${r.url}` === route)?.access;
        // A scope the read-only key lacks is a 403 for it, whatever the fixture says.
        const expect = {
          none: 401,
          revoked: 401,
          ...(access === 'write' || access === 'admin' ? { reader: 403 } : {}),
          ...fixture.expect,
        };
        for (const [who, status] of Object.entries(expect)) {
          const key = who === 'none' ? undefined : keys[who as keyof typeof keys];
          const res = await call(t.app, method, fixture.url(), { key, body: fixture.body?.() });
          assert.equal(res.statusCode, status, `${who}: ${res.body}`);
          if (who === 'revoked') assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
        }
        // The refusals changed nothing: the owner's unit and keys are intact.
        assert.equal((await call(t.app, 'GET', `/v1/knowledge/${unitId}`)).statusCode, 200);
        assert.equal((await call(t.app, 'GET', '/v1/export/owner', { key: keys.owner })).statusCode, 200);
        const skill = (await call(t.app, 'GET', `/v1/skills/${skillId}`)).json().data;
        assert.deepEqual([skill.version, skill.yanked], ['1.0.0', false]);
      });
    }
  });
}
