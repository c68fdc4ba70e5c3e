#!/usr/bin/env node
// Search quality, end to end: starts the built registry on a fresh SQLite database (a temporary folder, a
// free port, rate limits out of the way), runs the search evaluation's run.mjs against it over HTTP, and
// stops it.
//
//   npm run eval:search [-- --mode keyword|task|both] [--queries FILE] [--json OUT] [...run.mjs options]
//
// The evaluation (corpus, labelled queries, run.mjs) is test data kept outside the project: its folder is
// $REG_SEARCH_EVAL_DIR, else ../shared/search-eval. REG_EMBEDDINGS and its companions pass through to the
// registry (the default is none: lexical ranking). Exits with run.mjs's status.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const evalDir = resolve(process.env.REG_SEARCH_EVAL_DIR ?? join(root, '..', 'shared', 'search-eval'));
const runner = join(evalDir, 'run.mjs');
if (!existsSync(runner)) {
  console.error(
    `eval:search: ${runner} not found; set REG_SEARCH_EVAL_DIR to the folder holding run.mjs, corpus.jsonl.gz and the queries`,
  );
  process.exit(2);
}

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

const dir = mkdtempSync(join(tmpdir(), 'reg-eval-'));
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
// The registry saves its search index at shutdown: its folder is removed once it has exited.
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
  const started = Date.now();
  const run = spawn(process.execPath, [runner, '--base', base, ...process.argv.slice(2)], { stdio: 'inherit' });
  const status = await new Promise((done) => run.on('exit', (code) => done(code ?? 1)));
  console.log(
    `eval:search: ${((Date.now() - started) / 1000).toFixed(0)} s, embeddings: ${process.env.REG_EMBEDDINGS ?? 'none'}`,
  );
  await stop();
  process.exit(status);
} catch (error) {
  console.error(`eval:search: ${error.message}`);
  await stop();
  process.exit(1);
}
