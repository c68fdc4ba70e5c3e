// GET /v1/auth/whoami and GET /v1/auth/keys: who a credential is, and the agent's keys without their secrets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Caller } from '../../src/domain/caller.js';
import { backends } from '../helpers/backends.js';
import { call, register, testApp, type TestApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`whoami and the key list [${backend.name}]`, () => {
    let t: TestApp;
    let first: string;
    let reader: string;
    let other: string;
    before(async () => {
      // A stand-in for the identity provider: one token that authenticates as an OIDC agent.
      const jwt = async (token: string): Promise<Caller | null> =>
        token === 'idp-token'
          ? {
              authenticated: true,
              apiKey: null,
              tier: 'pro',
              agentId: 'idp-user',
              scopes: ['read', 'write'],
              keyId: null,
              method: 'oidc',
            }
          : null;
      t = await testApp(await backend.open(), { jwt });
      first = await register(t.app, 'ada', ['read', 'write'], 'pro');
      reader = await register(t.app, 'ada', ['read'], 'pro', first);
      other = await register(t.app, 'bob');
    });
    after(async () => t.close());

    it('says which agent, tier, scopes and key prefix a key is', async () => {
      const res = await call(t.app, 'GET', '/v1/auth/whoami', { key: reader });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        data: { agent_id: 'ada', tier: 'pro', scopes: ['read'], credential: 'api_key', key_prefix: reader.slice(0, 8) },
      });
    });

    it('says a token is a token, with no key prefix', async () => {
      const res = await call(t.app, 'GET', '/v1/auth/whoami', { headers: { authorization: 'Bearer idp-token' } });
      assert.deepEqual(res.json(), {
        data: { agent_id: 'idp-user', tier: 'pro', scopes: ['read', 'write'], credential: 'oidc', key_prefix: null },
      });
      assert.deepEqual(
        (await call(t.app, 'GET', '/v1/auth/keys', { headers: { authorization: 'Bearer idp-token' } })).json(),
        { data: [] },
      );
    });

    it("lists the calling agent's keys, revoked ones flagged, never a key or a hash, never another agent's", async () => {
      const spare = await register(t.app, 'ada', ['read'], 'pro', first);
      assert.equal(
        (await call(t.app, 'POST', '/v1/auth/revoke', { key: first, body: { key_prefix: spare.slice(0, 8) } }))
          .statusCode,
        200,
      );
      const res = await call(t.app, 'GET', '/v1/auth/keys', { key: reader });
      assert.equal(res.statusCode, 200);
      const keys = res.json().data as {
        key_prefix: string;
        scopes: string[];
        tier: string;
        created_at: string;
        revoked_at: string | null;
      }[];
      assert.deepEqual(
        keys.map((k) => [k.key_prefix, k.scopes, k.tier, k.revoked_at === null]),
        [
          [first.slice(0, 8), ['read', 'write'], 'pro', true],
          [reader.slice(0, 8), ['read'], 'pro', true],
          [spare.slice(0, 8), ['read'], 'pro', false],
        ],
      );
      for (const key of keys)
        assert.deepEqual(Object.keys(key).sort(), ['created_at', 'key_prefix', 'revoked_at', 'scopes', 'tier']);
      assert.ok(!res.body.includes(other.slice(0, 8)), "bob's key is not ada's");
      assert.ok(!/[0-9a-f]{64}/.test(res.body) && !res.body.includes(first), 'no hash, no key');
    });

    it('refuses anonymous callers and refused keys with 401', async () => {
      for (const path of ['/v1/auth/whoami', '/v1/auth/keys']) {
        assert.equal((await call(t.app, 'GET', path)).statusCode, 401);
        const refused = await call(t.app, 'GET', path, { key: 'reg_0000000000000000000000000000000000000000' });
        assert.equal(refused.statusCode, 401);
        assert.equal(refused.headers['www-authenticate'], 'Bearer error="invalid_token"');
      }
    });
  });
}
