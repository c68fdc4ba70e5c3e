// What an operator meets when the service cannot start: one line on stderr naming what to change, exit
// code 1, never a stack trace.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, ROOT, startServer } from './server.js';

async function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, REG_HOST: '127.0.0.1', REG_LOG_LEVEL: 'warn', REG_EMBEDDINGS: 'none', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

function assertOneLine(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got: ${result.stderr}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(result.stderr, /^\s+at /m);
}

describe('a start that cannot succeed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-startup-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the address when the port is in use', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    try {
      const result = await start({ REG_PORT: String(port), REG_DATABASE_URL: `sqlite:${join(dir, 'port.db')}` });
      assertOneLine(
        result,
        new RegExp(
          `^start-up failed: cannot listen on 127\\.0\\.0\\.1:${port} \\(REG_HOST, REG_PORT\\): the address is already in use`,
        ),
      );
    } finally {
      blocker.close();
    }
  });

  it('names the database when its path cannot be used', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const result = await start({ REG_PORT: '0', REG_DATABASE_URL: `sqlite:${file}/registry.db` });
    assertOneLine(
      result,
      /^start-up failed: cannot open the database sqlite:.*a-file\/registry\.db \(REG_DATABASE_URL\): /,
    );
  });

  it('names the database, password hidden, when its URL is malformed or unreachable', async () => {
    for (const url of ['postgres://agent:hunter2@[broken/db', 'postgres://agent:hunter2@127.0.0.1:1/db']) {
      const result = await start({ REG_PORT: '0', REG_DATABASE_URL: url });
      assertOneLine(
        result,
        /^start-up failed: cannot open the database postgres:\/\/agent:\*\*\*@.* \(REG_DATABASE_URL\): /,
      );
      assert.doesNotMatch(result.stderr, /hunter2/);
    }
  });

  it('says a bad value in one line too', async () => {
    assertOneLine(
      await start({ REG_PORT: 'x' }),
      /^configuration error: REG_PORT must be an integer from 0 to 65535, got "x"$/,
    );
  });
});

describe('metrics on a port of their own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-metrics-port-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('are served there without a key, and not on the API', async () => {
    const port = await freePort();
    const server = await startServer({
      REG_DATABASE_URL: `sqlite:${join(dir, 'registry.db')}`,
      REG_EMBEDDINGS: 'none',
      REG_METRICS: `port:${port}`,
    });
    try {
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(res.status, 200);
      assert.match(
        await res.text(),
        /^registry_http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]/m,
      );
      assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('name their port when it is in use', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    try {
      const result = await start({
        REG_PORT: '0',
        REG_DATABASE_URL: `sqlite:${join(dir, 'blocked.db')}`,
        REG_METRICS: `port:${port}`,
      });
      assertOneLine(
        result,
        new RegExp(
          `^start-up failed: cannot listen on 127\\.0\\.0\\.1:${port} \\(REG_HOST, REG_METRICS\\): the address is already in use`,
        ),
      );
    } finally {
      blocker.close();
    }
  });
});
