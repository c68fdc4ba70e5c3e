// The production path, as an operator follows it: compiled JavaScript and production dependencies only
// (`npm ci --omit=dev`), the service started with `node dist/main.js`, and the operator's commands run
// from dist/. The build comes from this tree (into a temporary folder); npm ci runs from the npm cache
// when it can. Native addons: install scripts are skipped and this tree's compiled better-sqlite3 is
// copied in, so the test takes seconds rather than a compiler run (the build from source is `npm ci`'s).
// The same build is served by each supported major: this Node, and Node 22 from .tmp/node22/ with
// better-sqlite3 compiled for it (scripts/install-node22.sh provides both; without them that run skips).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { unitBody } from '../helpers/app.js';
import { freePort, ROOT } from './server.js';
import { NODE22, node22Missing } from '../helpers/coverage.js';

const run = promisify(execFile);
const NATIVE_BUILD = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/** A Node.js runtime to serve the build with, and better-sqlite3 compiled for its ABI. */
interface Runtime {
  name: string;
  node: string;
  addon: string;
  /** Why it cannot run here, if it cannot. */
  missing?: string;
}

const runtimes: Runtime[] = [
  { name: `this Node (${process.version})`, node: process.execPath, addon: NATIVE_BUILD },
  process.versions.node.startsWith('22.')
    ? null
    : {
        name: 'Node 22',
        node: join(NODE22, 'node', 'bin', 'node'),
        addon: join(NODE22, 'better_sqlite3.node'),
        missing: node22Missing(),
      },
].filter((r): r is Runtime => r !== null);

describe('the production install', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-production-'));
  let skip: string | false = false;
  before(async () => {
    if (!existsSync(NATIVE_BUILD)) {
      skip = `no compiled better-sqlite3 at ${NATIVE_BUILD} to copy`;
      return;
    }
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(dir, file));
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        join(dir, 'dist'),
        '--tsBuildInfoFile',
        join(dir, 'tsbuildinfo'),
        '--sourceMap',
        'false',
      ],
      { cwd: ROOT },
    );
    await run(process.execPath, ['scripts/copy-web-files.mjs', join(dir, 'dist')], { cwd: ROOT });
    try {
      await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: dir,
        timeout: 180_000,
      });
    } catch (error) {
      skip = `npm ci --omit=dev could not install (no npm, or neither the npm cache nor the registry has the packages): ${String((error as Error).message).split('\n')[0]}`;
      return;
    }
    cpSync(NATIVE_BUILD, join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds no development dependency', (t) => {
    if (skip) return t.skip(skip);
    for (const dev of ['typescript', 'tsx', 'eslint'])
      assert.equal(existsSync(join(dir, 'node_modules', dev)), false, dev);
  });

  for (const runtime of runtimes) {
    it(`serves from dist/ on ${runtime.name} with production dependencies only; the operator commands run from dist/`, async (t) => {
      if (skip) return t.skip(skip);
      if (runtime.missing) return t.skip(runtime.missing);
      cpSync(runtime.addon, join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
      const data = mkdtempSync(join(dir, 'data-'));
      const env = {
        ...process.env,
        REG_DATABASE_URL: `sqlite:${join(data, 'registry.db')}`,
        REG_EMBEDDINGS: 'none',
        REG_LOG_LEVEL: 'warn',
        NODE_OPTIONS: '',
      };
      const version = await run(runtime.node, ['-p', 'process.versions.node'], { env });
      t.diagnostic(`node ${version.stdout.trim()}`);
      const admin = await run(runtime.node, ['dist/cli/admin-create.js', '--agent-id', 'ops'], { cwd: dir, env });
      const key = /^(reg_\S+)$/m.exec(admin.stdout)?.[1];
      assert.ok(key, admin.stdout);

      const port = await freePort();
      const child = spawn(runtime.node, ['dist/main.js'], {
        cwd: dir,
        env: { ...env, REG_PORT: String(port), REG_METRICS: 'admin' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      try {
        const url = `http://127.0.0.1:${port}`;
        for (let i = 0; ; i++) {
          assert.equal(child.exitCode, null, `the service exited: ${stderr}`);
          const ready = await fetch(`${url}/readyz`).catch(() => null);
          if (ready?.status === 200) break;
          assert.ok(i < 300, `not ready: ${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const whoami = await fetch(`${url}/v1/auth/whoami`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(whoami.status, 200);
        assert.equal(((await whoami.json()) as { data: { agent_id: string } }).data.agent_id, 'ops');
        const unit = await fetch(`${url}/v1/knowledge`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(unitBody()),
        });
        assert.equal(unit.status, 201, await unit.clone().text());
        const found = await fetch(`${url}/v1/knowledge?q=${encodeURIComponent('retry with exponential backoff')}`);
        assert.equal(found.status, 200);
        assert.equal(((await found.json()) as { data: unknown[] }).data.length, 1, 'the unit is found by search');
        assert.equal((await fetch(`${url}/`)).status, 200, 'the web pages, with their templates and assets');
        assert.equal((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
        const backup = await run(runtime.node, ['dist/cli/backup.js', '--out', join(data, 'backup.db')], {
          cwd: dir,
          env,
        });
        assert.match(backup.stdout, /integrity checked/);
      } finally {
        // Waits for the exit: at SIGTERM the service saves its search snapshot into the data folder.
        const exited = child.exitCode === null ? once(child, 'exit') : null;
        child.kill('SIGTERM');
        await exited;
      }
    });
  }
});
