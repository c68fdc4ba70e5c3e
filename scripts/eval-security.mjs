#!/usr/bin/env node
// The scanner, end to end: starts the built registry on a fresh SQLite database (a temporary folder, a free
// port, rate limits out of the way), has the security evaluation's run.mjs publish its labelled skills to it
// over HTTP (it prints the confusion matrix by label and family), and stops it. With `--base URL` it runs
// against a registry already running there instead.
//
//   npm run eval:security [-- --base URL] [--set FILE] [--concurrency N] [--json OUT] [...run.mjs options]
//
// The evaluation (labelled skills, run.mjs) is test data kept outside the project: its folder is
// $REG_SECURITY_EVAL_DIR, else ../shared/security-eval. Without it there is nothing to run: says so, exits 0.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const evalDir = resolve(process.env.REG_SECURITY_EVAL_DIR ?? join(root, '..', 'shared', 'security-eval'));
const runner = join(evalDir, 'run.mjs');
if (!existsSync(runner)) {
  console.log(
    `eval:security: ${runner} not found, so there is nothing to evaluate; set REG_SECURITY_EVAL_DIR to the folder holding run.mjs and its labelled set`,
  );
  process.exit(0);
}

const args = process.argv.slice(2);
const runAgainst = async (base) => {
  const run = spawn(
    process.execPath,
    [runner, ...args.filter((a, i) => a !== '--base' && args[i - 1] !== '--base'), '--base', base],
    {
      stdio: 'inherit',
    },
  );
  return new Promise((done) => run.on('exit', (code) => done(code ?? 1)));
};

const given = args.indexOf('--base');
if (given >= 0) process.exit(await runAgainst(args[given + 1]));

const freePort = () =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dir = mkdtempSync(join(tmpdir(), 'reg-seceval-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const many = '10000000';
const registry = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
  cwd: root,
  env: {
    ...process.env,
    REG_DATABASE_URL: `sqlite:${join(dir, 'registry.db')}`,
    REG_PORT: String(port),
    REG_HOST: '127.0.0.1',
    REG_LOG_LEVEL: process.env.REG_LOG_LEVEL ?? 'warn',
    REG_EMBEDDINGS: process.env.REG_EMBEDDINGS ?? 'none',
    REG_REDIS_URL: '',
    REG_RATE_LIMIT_ANONYMOUS: many,
    REG_RATE_LIMIT_FREE: many,
    REG_RATE_LIMIT_PRO: many,
    REG_RATE_LIMIT_ENTERPRISE: many,
    REG_SELF_SERVICE_TIERS: 'free,pro,enterprise',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let exited = false;
registry.on('exit', () => (exited = true));
const stopped = new Promise((done) => registry.on('exit', done));
const stop = async () => {
  if (!exited) {
    registry.kill('SIGTERM');
    await stopped;
  }
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', async () => {
  await stop();
  process.exit(130);
});

try {
  for (let i = 0; ; i++) {
    if (exited) throw new Error('the registry exited before it was ready');
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {}
    if (i > 600) throw new Error('the registry did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const status = await runAgainst(base);
  await stop();
  process.exit(status);
} catch (error) {
  console.error(`eval:security: ${error.message}`);
  await stop();
  process.exit(1);
}
