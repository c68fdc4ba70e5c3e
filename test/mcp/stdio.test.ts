// MCP over stdio: the command line's `mcp` server (spawned as a process) proxies the registry's REST API.
// The shared suite, the same tool definitions as POST /mcp, and its refusals as tool errors.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { register, testConfig } from '../helpers/app.js';
import { httpClient, ROOT, startedRegistry, stdioClient, text } from './fixtures.js';
import { describeMcpTransport } from './suite.js';

const run = promisify(execFile);

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

  it('refuses to start with a key the registry refuses, as the HTTP transport refuses to connect', async () => {
    const registry = await startedRegistry();
    try {
      await assert.rejects(stdioClient(registry.url, 'reg_0000000000000000000000000000000000000000'));
      // The registry answers in this process: the command runs beside it, not blocking it.
      const spawned = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/main.ts',
          'mcp',
          '--url',
          registry.url,
          '--key',
          'reg_0000000000000000000000000000000000000000',
        ],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
        },
      ).catch((error: { code?: number; stderr?: string }) => error);
      assert.equal((spawned as { code?: number }).code, 1);
      assert.match(String((spawned as { stderr?: string }).stderr), /refused the API key/);
    } finally {
      await registry.close();
    }
  });

  it('turns the rate limit and an unreachable registry into tool errors that say so', async () => {
    const limits = { anonymous: 3, free: 1_000, pro: 1_000, enterprise: 1_000 };
    const registry = await startedRegistry({ config: testConfig({ rateLimits: limits }) });
    const anonymous = await stdioClient(registry.url);
    try {
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await anonymous.callTool({ name: 'search_knowledge', arguments: {} }));
      const limited = results.find((r) => r.isError);
      assert.ok(limited, 'the fourth anonymous request in the minute is refused');
      assert.match(text(limited), /^RATE_LIMITED: rate limit of 3 requests per minute exceeded; retry in \d+ s$/);
      const write = await anonymous.callTool({
        name: 'contribute_skill',
        arguments: { skill_md_content: 'x', visibility: 'public' },
      });
      assert.match(text(write), /^authentication required: this tool needs an API key with write scope/);
    } finally {
      await anonymous.close();
      await registry.close();
    }
    // The registry is gone: a tool error with the reason, not a protocol failure.
    const orphan = await stdioClient(registry.url);
    try {
      const unreachable = await orphan.callTool({ name: 'search_skills', arguments: {} });
      assert.equal(unreachable.isError, true);
      assert.match(text(unreachable), /^UNAVAILABLE: the registry cannot be reached/);
    } finally {
      await orphan.close();
    }
  });
});
