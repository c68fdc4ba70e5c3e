// MCP over Streamable HTTP (POST /mcp on the app itself), with the SDK's own client: the shared suite, and
// what only this transport does: the same hooks as every route, and a refused key refused at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contributeSkill, register, testConfig } from '../helpers/app.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { getSkillEntry, httpClient, resourceText, startedRegistry, text } from './fixtures.js';
import { describeMcpTransport } from './suite.js';

describeMcpTransport({ name: 'Streamable HTTP', connect: httpClient, pageSize: 20 });

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('POST /mcp, as a route of the app', () => {
  it('passes the hooks every route passes: rate-limit headers, request id, JSON parser, 405 for other methods', async () => {
    const registry = await startedRegistry();
    try {
      const res = await fetch(`${registry.url}/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: JSON.stringify(initialize),
      });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('x-ratelimit-limit'));
      assert.ok(res.headers.get('x-request-id'));
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const body = (await res.json()) as {
        result: { serverInfo: { name: string }; capabilities: Record<string, unknown> };
      };
      assert.equal(body.result.serverInfo.name, 'knowledge-registry');
      assert.ok(body.result.capabilities.tools && body.result.capabilities.resources);

      const notJson = await fetch(`${registry.url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, 'content-type': 'text/plain' },
        body: 'hello',
      });
      assert.equal(notJson.status, 415);
      assert.equal(((await notJson.json()) as { error: { code: string } }).error.code, 'UNSUPPORTED_MEDIA_TYPE');
      const broken = await fetch(`${registry.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: '{"jsonrpc":' });
      assert.equal(broken.status, 400);
      const batch = await fetch(`${registry.url}/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: JSON.stringify([initialize, { ...initialize, id: 2 }]),
      });
      assert.equal(batch.status, 400, 'one message per request: a batch would multiply one rate-limited request');
      const get = await fetch(`${registry.url}/mcp`, { headers: { accept: 'text/event-stream' } });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      const foreign = await fetch(`${registry.url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, origin: 'http://evil.example' },
        body: JSON.stringify(initialize),
      });
      assert.equal(foreign.status, 403, 'a page on another site cannot reach the server (DNS rebinding)');
      const own = await fetch(`${registry.url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, origin: registry.url },
        body: JSON.stringify(initialize),
      });
      assert.equal(own.status, 200, "the registry's own pages may");
    } finally {
      await registry.close();
    }
  });

  it('refuses a key that does not authenticate with 401 and WWW-Authenticate, before any tool', async () => {
    const registry = await startedRegistry();
    try {
      const res = await fetch(`${registry.url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, authorization: 'Bearer reg_0000000000000000000000000000000000000000' },
        body: JSON.stringify(initialize),
      });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /API key was not accepted/);
      await assert.rejects(
        httpClient(registry.url, 'reg_0000000000000000000000000000000000000000'),
        /401|not accepted/,
      );
    } finally {
      await registry.close();
    }
  });

  it('addresses a skill whose publisher id has @ and : (percent-encoded in the URI)', async () => {
    const registry = await startedRegistry();
    try {
      const key = await register(registry.app, 'ops@team:1');
      await contributeSkill(registry.app, key, { name: 'deploy', description: 'Deploy the service.' });
      const client = await httpClient(registry.url);
      const uri = 'skill://ops%40team%3A1/deploy/SKILL.md';
      assert.ok((await client.listResources()).resources.some((r) => r.uri === uri));
      assert.match(resourceText(await client.readResource({ uri })), /name: deploy/);
      assert.equal((await getSkillEntry(client, uri)).skill.frontmatter.name, 'deploy');
      await client.close();
    } finally {
      await registry.close();
    }
  });

  it('answers a failure inside the registry as INTERNAL_ERROR, its details kept for the log', async () => {
    const store = openSqliteStore('sqlite::memory:');
    store.listSkills = async () => {
      throw new Error('SQLITE_CORRUPT: secret table layout');
    };
    const registry = await startedRegistry({ store });
    try {
      const client = await httpClient(registry.url);
      const result = await client.callTool({ name: 'search_skills', arguments: {} });
      assert.equal(result.isError, true);
      assert.equal(text(result), 'INTERNAL_ERROR: internal error; the request id in the logs has the details');
      await assert.rejects(
        client.listResources(),
        (error: Error) => /internal error/.test(error.message) && !/SQLITE|secret/.test(error.message),
      );
      await client.close();
    } finally {
      await registry.close();
    }
  });

  it('counts MCP requests against the caller’s rate limit, like any request', async () => {
    const limits = { anonymous: 6, free: 1_000, pro: 1_000, enterprise: 1_000 };
    const registry = await startedRegistry({ config: testConfig({ rateLimits: limits }) });
    try {
      const key = await register(registry.app, 'agent');
      const client = await httpClient(registry.url);
      let refusal: unknown;
      for (let i = 0; i < 10 && refusal === undefined; i++) {
        await client.callTool({ name: 'search_skills', arguments: {} }).catch((error: unknown) => {
          refusal = error;
        });
      }
      assert.match(String(refusal), /429|RATE_LIMITED/);
      await client.close().catch(() => {});
      // The agent's own budget is untouched by anonymous traffic from the same address.
      const agent = await httpClient(registry.url, key);
      assert.equal((await agent.callTool({ name: 'search_skills', arguments: {} })).isError, undefined);
      await agent.close();
    } finally {
      await registry.close();
    }
  });
});
