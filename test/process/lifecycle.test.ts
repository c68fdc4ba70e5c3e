import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { ROOT, json, startServer } from './server.js';

const run = promisify(execFile);

describe('the service as a process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-'));
  const env = { REG_DATABASE_URL: `sqlite:${join(dir, 'nested', 'registry.db')}` };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates its database on first start, stops cleanly on SIGTERM, and keeps the data', async () => {
    const first = await startServer(env);
    const reg = await json(`${first.url}/v1/auth/register`, {
      method: 'POST',
      body: { agent_id: 'durable', scopes: ['read', 'write'], tier: 'free' },
    });
    assert.equal(reg.status, 201);
    const key = reg.body.data.api_key as string;
    const unit = await json(`${first.url}/v1/knowledge`, {
      method: 'POST',
      key,
      body: {
        title: 'Survives restarts',
        type: 'fact',
        domain: 'ops',
        content: { description: 'Data written before SIGTERM is there after.', examples: [] },
        metadata: { source: 'test', confidence: 1 },
      },
    });
    assert.equal(unit.status, 201);
    assert.equal(await first.stop('SIGTERM'), 0, first.output());

    const second = await startServer(env);
    try {
      const got = await json(`${second.url}/v1/knowledge/${unit.body.data.id}`);
      assert.equal(got.status, 200);
      assert.equal((await json(`${second.url}/v1/reputation/durable`)).body.data.score, 0.2);
      assert.equal((await json(`${second.url}/v1/export/durable`, { key })).status, 200);
    } finally {
      await second.stop();
    }
  });

  it('creates an admin key from the command line, printed once, that works', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli/admin-create.ts', '--agent-id', 'ops'],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
      },
    );
    const key = /reg_[0-9A-Za-z]{40}/.exec(stdout)?.[0];
    assert.ok(key, stdout);
    const server = await startServer(env);
    try {
      const admin = await json(`${server.url}/v1/auth/register`, {
        method: 'POST',
        key,
        body: { agent_id: 'second-admin', scopes: ['read', 'admin'], tier: 'pro' },
      });
      assert.equal(admin.status, 201);
      assert.equal((await json(`${server.url}/v1/export/durable`, { key })).status, 200, 'admins export anyone');
    } finally {
      await server.stop();
    }
    await assert.rejects(
      run(process.execPath, ['--import', 'tsx', 'src/cli/admin-create.ts', '--agent-id', '-bad'], {
        cwd: ROOT,
        env: { ...process.env, ...env },
      }),
      /agent-id/,
    );
  });

  it('gives no admin key to an identity-provider agent, nor to an id under the reserved prefix', async () => {
    const store = openSqliteStore(env.REG_DATABASE_URL);
    await store.claimOidcAgent('sso-user', new Date().toISOString());
    await store.close();
    const cli = (agentId: string, extra: Record<string, string> = {}) =>
      run(process.execPath, ['--import', 'tsx', 'src/cli/admin-create.ts', '--agent-id', agentId], {
        cwd: ROOT,
        env: { ...process.env, ...env, ...extra },
      });
    await assert.rejects(cli('sso-user'), /claimed through the identity provider/);
    const oidc = {
      REG_OIDC_ISSUER: 'https://idp.example',
      REG_OIDC_AUDIENCE: 'registry',
      REG_OIDC_JWKS_URL: 'https://idp.example/jwks',
      REG_OIDC_AGENT_PREFIX: 'sso:',
    };
    await assert.rejects(cli('SSO:mallory', oidc), /reserved for identity-provider agents/);
  });

  it('logs at start-up which authentication methods are active', async () => {
    const plain = await startServer({ ...env, REG_LOG_LEVEL: 'info' });
    await plain.stop();
    assert.match(plain.output(), /"auth":\["api_key"\]/);
    const oidc = await startServer({
      ...env,
      REG_LOG_LEVEL: 'info',
      REG_OIDC_ISSUER: 'https://idp.example.com/',
      REG_OIDC_AUDIENCE: 'registry',
      REG_OIDC_JWKS_URL: 'https://idp.example.com/jwks.json',
    });
    await oidc.stop();
    assert.match(oidc.output(), /"auth":\["api_key","oidc"\]/);
  });

  it('answers oversized headers and malformed HTTP with the error envelope', async () => {
    const server = await startServer(env);
    try {
      const raw = async (request: string) => {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
        socket.write(request);
        let answer = '';
        for await (const chunk of socket) answer += chunk;
        return answer;
      };
      const big = await raw(`GET /v1/knowledge HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.match(big, /^HTTP\/1\.1 431 /);
      assert.match(
        big,
        /\{"error":\{"code":"PAYLOAD_TOO_LARGE","message":"request headers are larger than 16 KiB"\}\}$/,
      );
      const junk = await raw('THIS IS NOT HTTP\r\n\r\n');
      assert.match(junk, /^HTTP\/1\.1 400 /);
      assert.match(junk, /"code":"VALIDATION_ERROR"/);
    } finally {
      await server.stop();
    }
  });

  it('refuses a bad configuration with a clear message', async () => {
    await assert.rejects(startServer({ ...env, REG_PORT: 'x' }), /REG_PORT must be an integer/);
  });
});
