// Time limits and retries against registries that misbehave on the wire: a connection that never opens, an
// answer that never comes or stops halfway, rate limits and busy answers with Retry-After, dropped
// connections. The command line must end on its own, retry only what is safe to repeat, and say why it waits.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unitBody } from '../helpers/app.js';
import { cli as run, json, parsed, testServer, type TestServer } from './run.js';

const PAGE = { data: [], total: 0, offset: 0, limit: 20 };
const UNIT = {
  id: 'ku_1',
  agent_id: 'me',
  title: 'T',
  type: 'pattern',
  domain: 'd',
  content: { description: 'x', examples: [] },
  metadata: { source: 's', confidence: 1 },
  tags: [],
  quality_score: 0.5,
  validations: { valid: 0, invalid: 0 },
  created_at: 'x',
  updated_at: 'x',
};

describe('the command line on a misbehaving network', () => {
  let home: string;
  const servers: TestServer[] = [];
  const serve = async (handler: Parameters<typeof testServer>[0]) => {
    const server = await testServer(handler);
    servers.push(server);
    return server;
  };

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'kreg-network-'));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(home, { recursive: true, force: true });
  });

  it('gives up on a registry that accepts and never answers once the request timeout is spent, retries included (flag or REG_TIMEOUT)', async () => {
    const silent = await serve(() => undefined);
    // The default two retries: each used to wait a whole timeout of its own (three in all).
    const started = Date.now();
    const flag = await run(home, ['--url', silent.url, '--timeout', '1', 'search', 'pdf']);
    assert.equal(flag.code, 3);
    assert.equal(flag.stderr, `error: cannot reach the registry at ${silent.url}: no answer within 1 s\n`);
    assert.equal(silent.requests.length, 1, 'no retry after the time is up');
    assert.ok(Date.now() - started < 60_000, 'a sanity bound only: the command ends on its own');

    const env = await run(home, ['--url', silent.url, '--retries', '3', 'search', 'pdf'], {
      env: { REG_TIMEOUT: '0.5' },
    });
    assert.equal(env.code, 3);
    assert.equal(env.stderr, `error: cannot reach the registry at ${silent.url}: no answer within 0.5 s\n`);
    assert.equal(silent.requests.length, 2);
  });

  it('retries a dropped connection within the request timeout', async () => {
    let calls = 0;
    const dropping = await serve((_request, response) => {
      if (++calls === 1) return void response.socket?.destroy();
      json(response, 200, PAGE);
    });
    const result = await run(home, ['--url', dropping.url, '--timeout', '5', 'search']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^network error \(\w+\): waiting 1s \(then attempt 2\)\n$/);
    assert.equal(result.stdout, 'no skills match\n');
  });

  it('gives up on an answer that stops halfway', async () => {
    const stalling = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":[');
    });
    const result = await run(home, ['--url', stalling.url, '--timeout', '1', '--retries', '0', 'search']);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /no answer within 1 s/);
  });

  it('gives up on a connection that never opens, after the connect timeout', async () => {
    // A listener whose process is stuck: the kernel queues a connection or two, then drops the rest.
    const stuck: ChildProcess = spawn(process.execPath, [
      '-e',
      "const s=require('net').createServer();s.listen({port:0,host:'127.0.0.1',backlog:1},()=>{process.stdout.write(s.address().port+'\\n');Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,60000)})",
    ]);
    const sockets: Socket[] = [];
    try {
      const port = await new Promise<number>((resolve) =>
        stuck.stdout!.once('data', (data: Buffer) => resolve(Number(data.toString().trim()))),
      );
      for (let i = 0; i < 4; i++) sockets.push(connect(port, '127.0.0.1').on('error', () => undefined));
      const result = await run(home, [
        '--url',
        `http://127.0.0.1:${port}`,
        '--connect-timeout',
        '1',
        '--retries',
        '0',
        'search',
      ]);
      assert.equal(result.code, 3);
      assert.match(result.stderr, /: no connection within 1 s\n$/);
    } finally {
      for (const socket of sockets) socket.destroy();
      stuck.kill('SIGKILL');
    }
  });

  it('logs in and exports against an older registry that cannot say whose a key is', async () => {
    const older = await serve((request, response, path) => {
      if (path === '/v1/skills') return json(response, 200, PAGE);
      if (path === '/v1/export/old-agent') return json(response, 200, { data: { agent_id: 'old-agent' } });
      json(response, 404, { error: { code: 'NOT_FOUND', message: `route ${request.method}:${path} not found` } });
    });
    const env = { XDG_CONFIG_HOME: join(home, 'older') };
    const login = await run(home, ['--url', older.url, '--key', 'reg_whatever', 'login', '--agent-id', 'old-agent'], {
      env,
    });
    assert.equal(login.code, 0, login.stderr);
    const exported = await run(home, ['--url', older.url, 'export'], { env });
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(JSON.parse(exported.stdout).data.agent_id, 'old-agent');
  });

  it('leaves no file behind when an export is cut off', async () => {
    const cut = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":{"agent_id":"me","keys":[');
      setImmediate(() => response.socket?.destroy());
    });
    const out = join(home, 'export.json');
    const result = await run(home, ['--url', cut.url, '--key', 'reg_whatever', 'export', 'me', '--out', out]);
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: the registry at \S+ stopped answering: /);
    assert.deepEqual(
      readdirSync(home).filter((name) => name.startsWith('export.json')),
      [],
      'neither the file nor a partial one',
    );
  });

  it('waits out a rate limit as Retry-After says, and says so', async () => {
    let calls = 0;
    const limited = await serve((_request, response) => {
      if (++calls <= 2)
        json(response, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '1' });
      else json(response, 200, PAGE);
    });
    const result = await run(home, ['--url', limited.url, 'search']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      'rate limited: waiting 1s (then attempt 2)\nrate limited: waiting 1s (then attempt 3)\n',
    );
    assert.equal(result.stdout, 'no skills match\n');
  });

  it('does not wait longer than a minute: a longer Retry-After is reported at once', async () => {
    const closed = await serve((_request, response) =>
      json(response, 429, { error: { code: 'RATE_LIMITED', message: 'retry in 3600 s' } }, { 'retry-after': '3600' }),
    );
    const result = await run(home, ['--url', closed.url, '--json', 'search']);
    assert.equal(result.code, 1);
    assert.deepEqual(parsed(result), { error: { code: 'RATE_LIMITED', message: 'retry in 3600 s', status: 429 } });
    assert.equal(closed.requests.length, 1);
  });

  it('retries a GET after a busy answer or a dropped connection, but never repeats a DELETE that may have happened', async () => {
    let gets = 0;
    const flaky = await serve((request, response) => {
      if (request.method === 'DELETE')
        return json(response, 502, { error: { code: 'INTERNAL_ERROR', message: 'bad gateway' } });
      gets++;
      if (gets === 1) return void response.socket?.destroy();
      if (gets === 2) return json(response, 503, { error: { code: 'UNAVAILABLE', message: 'busy' } });
      json(response, 200, { data: UNIT });
    });
    const result = await run(home, ['--url', flaky.url, '--key', 'reg_whatever', 'units', 'delete', 'ku_1', '--yes']);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^network error \(\w+\): waiting 1s \(then attempt 2\)\nregistry unavailable \(HTTP 503\): waiting 1s \(then attempt 3\)\nerror: INTERNAL_ERROR: bad gateway\n$/,
    );
    assert.deepEqual(
      flaky.requests.map((r) => r.split(' ')[0]),
      ['GET', 'GET', 'GET', 'DELETE'],
      'the DELETE once',
    );
  });

  it('retries a POST with the same Idempotency-Key, so the registry replays it rather than doing it twice', async () => {
    const keys: string[] = [];
    let posts = 0;
    const dropping = await serve((request, response) => {
      keys.push(String(request.headers['idempotency-key']));
      if (++posts === 1) return void response.socket?.destroy();
      json(response, 201, { data: UNIT, quality_score: 0.5 });
    });
    const file = join(home, 'unit.json');
    writeFileSync(file, JSON.stringify(unitBody()));
    const result = await run(home, ['--url', dropping.url, '--key', 'reg_whatever', 'units', 'add', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1]);
    assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
  });

  it('imports through a rate limit, telling a log why it waits', async () => {
    let calls = 0;
    const limited = await serve((_request, response) => {
      if (++calls <= 2)
        json(response, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '1' });
      else json(response, 201, { data: UNIT, quality_score: 0.5 });
    });
    const file = join(home, 'units.jsonl');
    writeFileSync(file, `${JSON.stringify(unitBody())}\n${JSON.stringify(unitBody({ title: 'Two' }))}\n`);
    const result = await run(home, [
      '--url',
      limited.url,
      '--key',
      'reg_whatever',
      'units',
      'import',
      file,
      '--concurrency',
      '1',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, 'rate limited: waiting 1s (0 of 2 done)\nrate limited: waiting 1s (0 of 2 done)\n');
    assert.match(result.stdout, /2 imported, 0 already imported, 0 refused \(of 2 lines\)/);
  });
});
