// MCP over stdio: the command line's `mcp` server (spawned as a process) proxies the registry's REST API.
// The shared suite, the same tool definitions as POST /mcp, and its refusals as tool errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register, testConfig } from '../helpers/app.js';
import { httpClient, startedRegistry, stdioClient, text } from './fixtures.js';
import { describeMcpTransport } from './suite.js';

describeMcpTransport({ name: 'stdio (the CLI proxying REST)', connect: stdioClient, pageSize: 10 });

describe('the stdio MCP server', () => {
  it('offers exactly the tools POST /mcp offers', async () => {
    const registry = await startedRegistry();
    const key = await register(registry.app, 'agent');
    const [overStdio, overHttp] = await Promise.all([stdioClient(registry.url, key), httpClient(registry.url, key)]);
    try {
      assert.deepEqual((await overStdio.listTools()).tools, (await overHttp.listTools()).tools);
      assert.deepEqual(overStdio.getServerCapabilities(), overHttp.getServerCapabilities());
      assert.equal(overStdio.getInstructions(), overHttp.getInstructions());
    } finally {
      await Promise.all([overStdio.close(), overHttp.close()]);
      await registry.close();
    }
  });

  it('turns a refused key and the rate limit into tool errors that say so', async () => {
    const limits = { anonymous: 3, free: 1_000, pro: 1_000, enterprise: 1_000 };
    const registry = await startedRegistry({ config: testConfig({ rateLimits: limits }) });
    const badKey = await stdioClient(registry.url, 'reg_0000000000000000000000000000000000000000');
    const anonymous = await stdioClient(registry.url);
    try {
      const refused = await badKey.callTool({ name: 'search_skills', arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(text(refused), /^authentication required: .*the registry did not accept the API key/);
      const write = await badKey.callTool({ name: 'contribute_skill', arguments: { skill_md_content: 'x', visibility: 'public' } });
      assert.match(text(write), /^authentication required: this tool needs an API key with write scope/);

      const results = [];
      for (let i = 0; i < 5; i++) results.push(await anonymous.callTool({ name: 'search_knowledge', arguments: {} }));
      const limited = results.find((r) => r.isError);
      assert.ok(limited, 'the fourth anonymous request in the minute is refused');
      assert.match(text(limited), /^RATE_LIMITED: rate limit of 3 requests per minute exceeded; retry in \d+ s$/);
    } finally {
      await Promise.all([badKey.close(), anonymous.close()]);
      await registry.close();
    }
  });
});
