// npx tsx bench/report-flood.ts [--agents 2000] [--targets 50]
// A report flood against the moderation queue, in process (app.inject) over a SQLite file: many agents
// (each registered once, as a flood has to) report one skill, then reports spread over many targets; what
// it costs the registry to take them, and what the admins' queue costs to read while it is full (the first
// page, and a page deep in it). Also one agent at its daily quota: how many of its reports are refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { openSqliteStore } from '../src/store/sqlite/store.js';

const { values } = parseArgs({
  options: { agents: { type: 'string', default: '2000' }, targets: { type: 'string', default: '50' } },
});
const AGENTS = Number(values.agents);
const TARGETS = Number(values.targets);
const CONCURRENCY = 16;

const dir = mkdtempSync(join(tmpdir(), 'bench-report-flood-'));
const url = `sqlite:${join(dir, 'registry.db')}`;
const config = {
  ...loadConfig({ REG_DATABASE_URL: url, REG_EMBEDDINGS: 'none', REG_SEARCH_SNAPSHOT_DIR: 'none' }),
  openAdminRegistration: true,
  rateLimits: { anonymous: 1e9, free: 1e9, pro: 1e9, enterprise: 1e9 },
};
const app = await buildApp({ config, store: openSqliteStore(url), awaitSearchIndex: true });

async function send(method: 'GET' | 'POST', path: string, key: string | null, body?: unknown) {
  const res = await app.inject({
    method,
    url: path,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, json: () => res.json() };
}

async function register(agent: string, scopes = ['read', 'write']): Promise<string> {
  const res = await send('POST', '/v1/auth/register', null, { agent_id: agent, scopes, tier: 'free' });
  if (res.status !== 201) throw new Error(`register ${agent}: ${res.status} ${JSON.stringify(res.json())}`);
  return res.json().data.api_key as string;
}

async function inParallel<T>(items: T[], run: (item: T) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function timed(path: string, key: string, rounds = 20): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const res = await send('GET', path, key);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

try {
  const root = await register('root', ['read', 'write', 'admin']);
  const publisher = await register('publisher');
  const targets: string[] = [];
  for (let i = 0; i < TARGETS; i++) {
    const md = `---\nname: target-${i}\ndescription: A reported skill number ${i}.\n---\n# Use\n\nRun it.\n`;
    const res = await send('POST', '/v1/skills', publisher, { skill_md_content: md, visibility: 'public' });
    targets.push(res.json().data.id as string);
  }
  const keys: string[] = [];
  const registering = await inParallel(
    Array.from({ length: AGENTS }, (_, i) => `flood-${i}`),
    async (agent) => void keys.push(await register(agent)),
  );
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const oneTarget = await inParallel(keys, async (key) => {
    count((await send('POST', '/v1/reports', key, { target: targets[0], reason: 'spam' })).status);
  });
  const spread = await inParallel(keys, async (key) => {
    for (const target of targets.slice(1, 4))
      count((await send('POST', '/v1/reports', key, { target, reason: 'malware', details: 'x'.repeat(200) })).status);
  });
  const again = await inParallel(keys.slice(0, 200), async (key) => {
    count((await send('POST', '/v1/reports', key, { target: targets[0], reason: 'spam' })).status);
  });
  const quotaStatuses = new Map<number, number>();
  const single = keys[0]!;
  for (const target of targets.slice(4, 4 + 30)) {
    const status = (await send('POST', '/v1/reports', single, { target, reason: 'other' })).status;
    quotaStatuses.set(status, (quotaStatuses.get(status) ?? 0) + 1);
  }
  const queue = (await send('GET', '/v1/moderation/reports?limit=1', root)).json();
  const first = await timed('/v1/moderation/reports?limit=100', root);
  const deep = await timed(`/v1/moderation/reports?limit=100&offset=${Math.max(0, queue.total - 100)}`, root);
  const log = await timed('/v1/moderation/log?limit=100', root);
  console.log(`agents registered: ${AGENTS} in ${registering.toFixed(1)} s`);
  console.log(`one target, one report each: ${(AGENTS / oneTarget).toFixed(0)} reports/s`);
  console.log(`three targets each, 200-character details: ${((AGENTS * 3) / spread).toFixed(0)} reports/s`);
  console.log(`200 repeats of an open report: ${(200 / again).toFixed(0)} answers/s`);
  console.log(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
  console.log(
    `one agent, 30 reports against the free tier's daily quota: ${JSON.stringify(Object.fromEntries(quotaStatuses))}`,
  );
  console.log(
    `queue: ${queue.total} open items; first page of 100: ${first.toFixed(1)} ms, last page: ${deep.toFixed(1)} ms (median of 20)`,
  );
  console.log(`public log, first 100: ${log.toFixed(1)} ms`);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
