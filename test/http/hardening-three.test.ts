// The third round of attacks on the new surfaces, each answered at its root: DNS rebinding against a
// loopback registry, MCP messages nested to exhaust the stack, and yanked skills delivered to agent hosts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeSkill, errorCode, register, skillMd, testApp, testConfig } from '../helpers/app.js';

const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('hardening, round three', () => {
  it('answers only to the host names it serves: a rebinding page gets 403 on every route, probes answer anyway', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const evil = { host: 'evil.example:3000', origin: 'http://evil.example:3000' };
      for (const [method, url] of [
        ['GET', '/v1/skills'],
        ['POST', '/v1/auth/register'],
        ['POST', '/mcp'],
        ['GET', '/'],
      ] as const) {
        const res = await call(t.app, method, url, {
          headers: evil,
          body: method === 'POST' ? { agent_id: 'x', scopes: ['read'], tier: 'free' } : undefined,
        });
        assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
        assert.match(res.body, /does not answer to the host name/);
      }
      assert.equal((await call(t.app, 'GET', '/healthz', { headers: evil })).statusCode, 200);
      for (const host of ['localhost:3000', '127.0.0.1:8080', '[::1]:3000', 'LOCALHOST']) {
        assert.equal((await call(t.app, 'GET', '/v1/skills', { headers: { host } })).statusCode, 200, host);
      }
    } finally {
      await t.close();
    }
    assert.deepEqual(loadConfig({ REG_ALLOWED_HOSTS: 'registry.example.org, Intranet' }).allowedHosts, [
      'registry.example.org',
      'intranet',
    ]);
    const open = loadConfig({ REG_HOST: '0.0.0.0' });
    assert.equal(open.allowedHosts, null);
    assert.ok(open.warnings.some((w) => /REG_ALLOWED_HOSTS is not set/.test(w)));
    assert.throws(() => loadConfig({ REG_ALLOWED_HOSTS: 'host:3000 with spaces' }), /REG_ALLOWED_HOSTS/);
    const named = await testApp(openSqliteStore('sqlite::memory:'), {
      config: testConfig({ allowedHosts: ['registry.example.org'] }),
    });
    try {
      assert.equal(
        (await call(named.app, 'GET', '/v1/skills', { headers: { host: 'registry.example.org' } })).statusCode,
        200,
      );
      assert.equal((await call(named.app, 'GET', '/v1/skills', { headers: { host: 'localhost' } })).statusCode, 403);
    } finally {
      await named.close();
    }
  });

  it('refuses an MCP message nested 100,000 levels deep with 400, as REST does, and keeps serving', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const nested = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
      const payload = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_skills","arguments":${nested}}}`;
      const res = await t.app.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders, payload });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(errorCode(res as never), 'VALIDATION_ERROR');
      const rest = await t.app.inject({
        method: 'POST',
        url: '/v1/knowledge',
        headers: { 'content-type': 'application/json' },
        payload: nested,
      });
      assert.equal(rest.statusCode, 401, 'REST refuses it before reading it (no key)');
      assert.equal((await call(t.app, 'GET', '/healthz')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('delivers no yanked skill to agent hosts: skills/get and resources/read refuse a skill whose every version is yanked', async () => {
    const t = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const key = await register(t.app, 'yanker');
      const { id } = await contributeSkill(t.app, key, { name: 'gone-soon' });
      const rpc = async (method: string, params: object) =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/mcp',
            headers: mcpHeaders,
            payload: { jsonrpc: '2.0', id: 1, method, params },
          })
        ).json();
      const uri = 'skill://yanker/gone-soon/SKILL.md';
      assert.equal((await rpc('resources/read', { uri })).result.contents[0].text, skillMd({ name: 'gone-soon' }));
      assert.equal((await call(t.app, 'POST', `/v1/skills/${id}/versions/1.0.0/yank`, { key })).statusCode, 200);
      assert.equal((await rpc('resources/read', { uri })).error?.code, -32602);
      assert.equal((await rpc('skills/get', { uri })).error?.code, -32602);
      const rest = (await call(t.app, 'GET', `/v1/skills/${id}`)).json().data;
      assert.deepEqual(
        [rest.version, rest.yanked, rest.latest_version],
        ['1.0.0', true, null],
        'REST still says what it is, flagged',
      );
    } finally {
      await t.close();
    }
  });
});
