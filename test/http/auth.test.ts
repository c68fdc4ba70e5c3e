import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, errorCode, register, testApp, testConfig, type TestApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`registration and revocation [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(await backend.open());
    });
    after(async () => t.close());

    it('registers an agent and returns its key once, with the contract shape', async () => {
      const res = await call(t.app, 'POST', '/v1/auth/register', {
        body: { agent_id: 'alpha', scopes: ['read', 'write'], tier: 'pro' },
      });
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.match(body.data.api_key, /^reg_[0-9A-Za-z]{40}$/);
      assert.equal(body.data.key_prefix, body.data.api_key.slice(0, 8));
      assert.deepEqual(body.data.scopes, ['read', 'write']);
      assert.equal(body.data.tier, 'pro');
      assert.match(body.data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.match(body.message, /created/i);
      assert.deepEqual(Object.keys(body.data).sort(), ['api_key', 'created_at', 'key_prefix', 'scopes', 'tier']);
    });

    it('refuses bad registration bodies with 400 naming the field', async () => {
      const cases: [unknown, RegExp][] = [
        [{ scopes: ['read'], tier: 'free' }, /agent_id is required/],
        [{ agent_id: '-bad', scopes: ['read'], tier: 'free' }, /agent_id/],
        [{ agent_id: 'a'.repeat(129), scopes: ['read'], tier: 'free' }, /agent_id/],
        [{ agent_id: 'has space', scopes: ['read'], tier: 'free' }, /agent_id/],
        [{ agent_id: 'ok', scopes: [], tier: 'free' }, /scopes/],
        [{ agent_id: 'ok', scopes: ['root'], tier: 'free' }, /scopes\.0 must be one of read, write, admin/],
        [{ agent_id: 'ok', scopes: ['read', 'read'], tier: 'free' }, /scopes/],
        [{ agent_id: 'ok', scopes: ['read'], tier: 'gold' }, /tier must be one of free, pro, enterprise/],
        [{ agent_id: 'ok', scopes: 'read', tier: 'free' }, /scopes must be array/],
        [{ agent_id: 'ok', scopes: ['read'], tier: 'free', extra: 1 }, /extra is not a known field/],
        [[1, 2], /body must be object/],
      ];
      for (const [body, message] of cases) {
        const res = await call(t.app, 'POST', '/v1/auth/register', { body });
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(errorCode(res), 'VALIDATION_ERROR');
        assert.match(res.json().error.message, message, JSON.stringify(body));
      }
      const profile = await call(t.app, 'GET', '/v1/reputation/ok');
      assert.equal(profile.statusCode, 404, 'a refused registration creates nothing');
    });

    it('lets the first registration claim an agent id; others get 409', async () => {
      const key = await register(t.app, 'claimed');
      const stranger = await call(t.app, 'POST', '/v1/auth/register', {
        body: { agent_id: 'claimed', scopes: ['read', 'write'], tier: 'free' },
      });
      assert.equal(stranger.statusCode, 409);
      assert.equal(errorCode(stranger), 'CONFLICT');
      const otherAgent = await register(t.app, 'other');
      const asOther = await call(t.app, 'POST', '/v1/auth/register', {
        key: otherAgent,
        body: { agent_id: 'claimed', scopes: ['read'], tier: 'free' },
      });
      assert.equal(asOther.statusCode, 409);
      const own = await call(t.app, 'POST', '/v1/auth/register', {
        key,
        body: { agent_id: 'claimed', scopes: ['read'], tier: 'enterprise' },
      });
      assert.equal(own.statusCode, 201, own.body);
    });

    it('does not let a key mint a key with scopes it lacks', async () => {
      const full = await register(t.app, 'narrow');
      const readOnly = await call(t.app, 'POST', '/v1/auth/register', {
        key: full,
        body: { agent_id: 'narrow', scopes: ['read'], tier: 'free' },
      });
      const res = await call(t.app, 'POST', '/v1/auth/register', {
        key: readOnly.json().data.api_key,
        body: { agent_id: 'narrow', scopes: ['read', 'write'], tier: 'free' },
      });
      assert.equal(res.statusCode, 403);
      assert.match(res.json().error.message, /write/);
    });

    it('grants admin only to admins, and says how to create the first one', async () => {
      const res = await call(t.app, 'POST', '/v1/auth/register', {
        body: { agent_id: 'wannabe', scopes: ['read', 'admin'], tier: 'free' },
      });
      assert.equal(res.statusCode, 403);
      assert.equal(errorCode(res), 'FORBIDDEN');
      assert.match(res.json().error.message, /npm run admin:create -- --agent-id/);
      const plain = await register(t.app, 'plain');
      const asPlain = await call(t.app, 'POST', '/v1/auth/register', {
        key: plain,
        body: { agent_id: 'plain', scopes: ['admin'], tier: 'free' },
      });
      assert.equal(asPlain.statusCode, 403);
    });

    it('revokes a key so that the very next request with it is refused', async () => {
      const key = await register(t.app, 'revoker');
      const prefix = key.slice(0, 8);
      const res = await call(t.app, 'POST', '/v1/auth/revoke', { key, body: { key_prefix: prefix } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { data: { revoked: true, key_prefix: prefix } });
      const after = await call(t.app, 'POST', '/v1/auth/revoke', { key, body: { key_prefix: prefix } });
      assert.equal(after.statusCode, 401);
      assert.equal(errorCode(after), 'UNAUTHORIZED');
      assert.equal(after.headers['www-authenticate'], 'Bearer error="invalid_token"');
    });

    it("hides other agents' keys: revoking one answers 404 and leaves it working", async () => {
      const victim = await register(t.app, 'victim');
      const attacker = await register(t.app, 'attacker');
      const res = await call(t.app, 'POST', '/v1/auth/revoke', {
        key: attacker,
        body: { key_prefix: victim.slice(0, 8) },
      });
      assert.equal(res.statusCode, 404);
      assert.equal(errorCode(res), 'NOT_FOUND');
      const still = await call(t.app, 'GET', '/v1/export/victim', { key: victim });
      assert.equal(still.statusCode, 200);
      const unknown = await call(t.app, 'POST', '/v1/auth/revoke', { key: attacker, body: { key_prefix: 'reg_0000' } });
      assert.equal(unknown.statusCode, 404);
      const anonymous = await call(t.app, 'POST', '/v1/auth/revoke', { body: { key_prefix: victim.slice(0, 8) } });
      assert.equal(anonymous.statusCode, 401);
      assert.match(String(anonymous.headers['www-authenticate']), /^Bearer/);
    });

    it('treats a malformed or unknown credential as anonymous and says it was refused', async () => {
      for (const header of ['Bearer reg_nope', 'Basic dXNlcjpwYXNz', 'Bearer', `Bearer reg_${'x'.repeat(40)}`]) {
        const res = await call(t.app, 'GET', '/v1/knowledge', { headers: { authorization: header } });
        assert.equal(res.statusCode, 200, header);
        assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"', header);
        const write = await call(t.app, 'POST', '/v1/knowledge', { headers: { authorization: header }, body: {} });
        assert.equal(write.statusCode, 401, header);
      }
    });
  });

  describe(`admin keys [${backend.name}]`, () => {
    it('lets an admin register admins, add keys to any agent and revoke any key', async () => {
      const t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      try {
        const admin = await register(t.app, 'root', ['read', 'write', 'admin']);
        const t2 = await call(t.app, 'POST', '/v1/auth/register', {
          key: admin,
          body: { agent_id: 'second-admin', scopes: ['admin'], tier: 'free' },
        });
        assert.equal(t2.statusCode, 201);
        const user = await register(t.app, 'user');
        const added = await call(t.app, 'POST', '/v1/auth/register', {
          key: admin,
          body: { agent_id: 'user', scopes: ['read'], tier: 'free' },
        });
        assert.equal(added.statusCode, 201);
        const revoked = await call(t.app, 'POST', '/v1/auth/revoke', {
          key: admin,
          body: { key_prefix: user.slice(0, 8) },
        });
        assert.equal(revoked.statusCode, 200);
        assert.equal((await call(t.app, 'GET', '/v1/export/user', { key: user })).statusCode, 401);
      } finally {
        await t.close();
      }
    });
  });
}
