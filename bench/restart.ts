// What a restart costs the clients of a loaded registry: starts the built service (dist/main.js) on an
// existing SQLite database, polls GET /healthz and a search every 100 ms from the moment it is spawned
// (each by a client that waits for its answer before it asks again), and reports, for each, the worst
// latency, p99, and the answers other than 200 (refusals), plus when it listened and when /readyz first
// said ready. With --corpus and a database that does not exist yet, it
// first loads the corpus's skills (public, over HTTP) and stops the service, so the run is a restart.
//
//   npm run build && tsx bench/restart.ts --db /tmp/restart/registry.db \
//     [--corpus ../shared/search-eval/corpus.jsonl.gz] [--after-ready-s 5] [--q "convert pdf to text"] [--runs 1]
//     [--env K=V,K=V]   (more of the service's environment, e.g. a PostgreSQL REG_DATABASE_URL and a
//                        REG_SEARCH_SNAPSHOT_DIR: the restart is then of that database)
import { existsSync, mkdirSync, createReadStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort, startProcess } from './processes.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const db = resolve(args.get('db') ?? '/tmp/registry-restart/registry.db');
const corpus = args.get('corpus');
const afterReadyMs = Number(args.get('after-ready-s') ?? 5) * 1000;
const q = args.get('q') ?? 'convert pdf to text';
const runs = Number(args.get('runs') ?? 1);
const many = '10000000';
const env = {
  REG_DATABASE_URL: `sqlite:${db}`,
  REG_LOG_LEVEL: 'warn',
  REG_EMBEDDINGS: 'none',
  REG_RATE_LIMIT_ANONYMOUS: many,
  REG_RATE_LIMIT_ENTERPRISE: many,
  REG_SELF_SERVICE_TIERS: 'free,pro,enterprise',
  ...(args.get('env')
    ? Object.fromEntries(
        args
          .get('env')!
          .split(',')
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      )
    : {}),
};
const start = (timeoutMs = 600_000) => startProcess([process.execPath, 'dist/main.js'], env, ROOT, timeoutMs);

async function post(
  url: string,
  path: string,
  body: unknown,
  key?: string,
): Promise<{ status: number; json: unknown }> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as unknown;
    if ((res.status === 503 || res.status === 429) && attempt < 20)
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    else return { status: res.status, json };
  }
}

async function load(file: string): Promise<void> {
  mkdirSync(dirname(db), { recursive: true });
  const service = await start();
  const started = Date.now();
  const keys: string[] = [];
  for (let i = 0; i < 50; i++) {
    const reg = await post(service.url, '/v1/auth/register', {
      agent_id: `restart-${i}`,
      scopes: ['read', 'write'],
      tier: 'enterprise',
    });
    keys.push((reg.json as { data: { api_key: string } }).data.api_key);
  }
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })[
    Symbol.asyncIterator
  ]();
  let posted = 0;
  const statuses: Record<number, number> = {};
  let lock = Promise.resolve();
  const next = () => (lock = lock.then(() => undefined)).then(() => lines.next());
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const { value, done } = await next();
        if (done) return;
        if (!value.trim()) continue;
        const skill = JSON.parse(value) as { skill_md_content: string };
        const res = await post(
          service.url,
          '/v1/skills',
          { visibility: 'public', skill_md_content: skill.skill_md_content },
          keys[posted % keys.length],
        );
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (++posted % 2000 === 0) process.stderr.write(`  loaded ${posted} skills\n`);
      }
    }),
  );
  console.log(
    `loaded ${posted} skills in ${((Date.now() - started) / 1000).toFixed(0)} s; statuses ${JSON.stringify(statuses)}`,
  );
  await service.stop();
}

interface Poll {
  at: number;
  ms: number;
  status: number | 'refused' | 'timed out' | 'not indexed';
  message?: string;
}

const pct = (xs: number[], p: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)]!;

async function poll(url: string, path: string, t0: number): Promise<Poll> {
  const at = performance.now();
  try {
    const res = await fetch(url + path, { signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    const json = JSON.parse(text) as { error?: { message?: string }; search?: { indexed?: boolean } };
    const message = res.status === 200 ? undefined : (json.error?.message ?? text.slice(0, 80));
    // A registry that answers /readyz 200 while its index is built says so in search.indexed.
    const status = res.status === 200 && json.search?.indexed === false ? 'not indexed' : res.status;
    return { at: at - t0, ms: performance.now() - at, status, ...(message ? { message } : {}) };
  } catch (error) {
    return {
      at: at - t0,
      ms: performance.now() - at,
      status: (error as Error).name === 'TimeoutError' ? 'timed out' : 'refused',
    };
  }
}

async function restartOnce(): Promise<void> {
  // Polls begin as soon as the process is spawned: until it listens they are refused (not counted as
  // answers), and a start-up that holds the event loop shows as slow or refused polls.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: { ...process.env, ...env, REG_PORT: String(port), REG_HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const health: Poll[] = [];
  const search: Poll[] = [];
  let readyAt = NaN;
  let listening = NaN;
  let stopAt = performance.now() + 600_000;
  // Each poller is a client that waits for its answer: it asks every 100 ms, or as soon as an answer that
  // took longer arrives (a search held while the index loads is one request, not one per tick).
  const poller = async (path: string, got: (p: Poll) => void, until: () => boolean) => {
    while (performance.now() < stopAt && child.exitCode === null && !until()) {
      const next = performance.now() + 100;
      got(await poll(url, path, t0));
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  };
  const inflight = [
    poller(
      '/healthz',
      (p) => {
        health.push(p);
        if (p.status !== 'refused' && Number.isNaN(listening)) listening = p.at;
      },
      () => false,
    ),
    poller(
      `/v1/skills?q=${encodeURIComponent(q)}&limit=10`,
      (p) => search.push(p),
      () => false,
    ),
    poller(
      '/readyz',
      (p) => {
        if (p.status === 200 && Number.isNaN(readyAt)) {
          readyAt = p.at;
          stopAt = performance.now() + afterReadyMs;
        }
      },
      () => !Number.isNaN(readyAt),
    ),
  ];
  await Promise.all(inflight);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
  const line = (name: string, polls: Poll[]) => {
    const ok = polls.filter((p) => p.status === 200).map((p) => p.ms);
    const all = polls.map((p) => p.ms);
    const refused: Record<string, number> = {};
    for (const p of polls)
      if (p.status !== 200)
        refused[`${p.status}${p.message ? ` ${p.message.replace(/\d[\d,]*/g, 'N')}` : ''}`] =
          (refused[`${p.status}${p.message ? ` ${p.message.replace(/\d[\d,]*/g, 'N')}` : ''}`] ?? 0) + 1;
    const slowest = [...polls]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((p) => `${p.ms.toFixed(0)} ms at ${(p.at / 1000).toFixed(1)} s`);
    return `${name}: ${polls.length} polls, slowest ${slowest.join(', ')}; worst ${Math.max(...all).toFixed(0)} ms, p99 ${pct(all, 0.99).toFixed(0)} ms, p50 ${pct(all, 0.5).toFixed(1)} ms; answered 200: ${ok.length}; others: ${JSON.stringify(refused)}`;
  };
  console.log(
    `listening after ${(listening / 1000).toFixed(1)} s, /readyz ready after ${(readyAt / 1000).toFixed(1)} s`,
  );
  const since = (polls: Poll[]) => polls.filter((p) => p.at >= listening);
  console.log(line('  /healthz', since(health)));
  console.log(line('  search  ', since(search)));
  const afterReady = search.filter((p) => p.at >= readyAt);
  console.log(line('  search once ready', afterReady));
}

// With a database URL of its own in --env (PostgreSQL), --db is not used.
if (!env.REG_DATABASE_URL.startsWith('sqlite:')) {
  if (corpus) throw new Error('--corpus loads a SQLite file: load a PostgreSQL database first');
} else if (!existsSync(db)) {
  if (!corpus) throw new Error(`${db} does not exist: pass --corpus to load one`);
  await load(corpus);
}
for (let i = 0; i < runs; i++) await restartOnce();
