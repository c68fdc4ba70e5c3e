// npx tsx bench/secure-delete.ts [--rounds 3] [--units 3000] [--skills 600] [--concurrency 32]
// What overwriting deleted content costs writes (PRAGMA secure_delete, src/store/sqlite/connection.ts):
// contributions, publications and deletions per second, in process (app.inject) over a SQLite file, with it
// on (the default) and off, with the CPU time and the bytes the process wrote per operation (/proc/self/io's
// wchar: the pages SQLite wrote to the WAL and the file), which depend far less than the rate on how busy a
// shared machine is. Each round
// makes a fresh database per setting and alternates which goes first, so a busy machine weighs on both
// alike; printed: the median of each round's on/off ratio. Deletions include the checkpoint that follows
// each (src/store/sqlite/erasure.ts) in both settings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { openSqliteStore } from '../src/store/sqlite/store.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    units: { type: 'string', default: '3000' },
    skills: { type: 'string', default: '600' },
    concurrency: { type: 'string', default: '32' },
  },
});
const ROUNDS = Number(values.rounds);
const UNITS = Number(values.units);
const SKILLS = Number(values.skills);
const CONCURRENCY = Number(values.concurrency);
const AGENTS = 8;

type Setting = 'on' | 'off';
const OPERATIONS = ['contribute', 'publish', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];
/** Per operation: how many a second, and CPU microseconds and bytes written by the process per operation. */
interface Figure {
  perSecond: number;
  cpuMicros: number;
  bytes: number;
}
type Figures = Record<Operation, Figure>;

/** Bytes this process has passed to write() so far (Linux). */
const written = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);

/** Runs `count` requests, `CONCURRENCY` at a time. */
async function run(count: number, request: (i: number) => Promise<void>): Promise<Figure> {
  let next = 0;
  const bytes = written();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) await request(i);
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    perSecond: count / ((performance.now() - started) / 1000),
    cpuMicros: (used.user + used.system) / count,
    bytes: (written() - bytes) / count,
  };
}

async function measure(setting: Setting): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-secure-delete-'));
  const url = `sqlite:${join(dir, 'registry.db')}`;
  const unlimited = 'units=unlimited,skills=unlimited,bytes=unlimited';
  const config = {
    ...loadConfig({
      REG_DATABASE_URL: url,
      REG_EMBEDDINGS: 'none',
      REG_SEARCH_SNAPSHOT_DIR: 'none',
      REG_QUOTA_FREE: unlimited,
    }),
    rateLimits: { anonymous: 1e9, free: 1e9, pro: 1e9, enterprise: 1e9 },
  };
  const store = openSqliteStore(url, {
    onConnection: (connection) => connection.pragma(`secure_delete = ${setting === 'on' ? 'ON' : 'OFF'}`),
  });
  const app = await buildApp({ config, store, awaitSearchIndex: true, limits: { maxEventLoopDelayMs: 0 } });
  try {
    const send = async (method: 'POST' | 'DELETE', path: string, key: string, body?: unknown) => {
      const res = await app.inject({
        method,
        url: path,
        headers: { authorization: `Bearer ${key}` },
        payload: body as object,
      });
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
      return res.json() as { data: { id: string; api_key: string } };
    };
    const keys: string[] = [];
    for (let a = 0; a < AGENTS; a++) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/auth/register',
        payload: { agent_id: `bench-${a}`, scopes: ['read', 'write'], tier: 'free' },
      });
      keys.push((res.json() as { data: { api_key: string } }).data.api_key);
    }
    const ids: string[] = [];
    const contribute = await run(UNITS, async (i) => {
      const unit = await send('POST', '/v1/knowledge', keys[i % AGENTS]!, {
        title: `Finding number ${i} about retries and backoff`,
        type: 'pattern',
        domain: 'web-development',
        content: {
          description: `When call ${i} fails with a transient error, retry it with exponential backoff. `.repeat(8),
          examples: [`await retry(call${i}, { attempts: 5 })`],
        },
        metadata: { source: `https://example.org/findings/${i}`, confidence: 0.8 },
        tags: ['http', `tag${i % 50}`],
      });
      ids[i] = unit.data.id;
    });
    const publish = await run(SKILLS, async (i) => {
      const body = `# Usage\n\n${`Step ${i}: run the tool on the file and check its output. `.repeat(40)}\n`;
      await send('POST', '/v1/skills', keys[i % AGENTS]!, {
        skill_md_content: `---\nname: tool-${i}\ndescription: A tool number ${i} for files.\n---\n${body}`,
        visibility: i % 5 === 0 ? 'private' : 'public',
      });
    });
    const deleted = await run(UNITS, async (i) => {
      await send('DELETE', `/v1/knowledge/${ids[i]}`, keys[i % AGENTS]!);
    });
    return { contribute, publish, delete: deleted };
  } finally {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const runs: Record<Setting, Figures[]> = { on: [], off: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order: Setting[] = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
  for (const setting of order) {
    const figures = await measure(setting);
    runs[setting].push(figures);
    const line = OPERATIONS.map(
      (op) =>
        `${op} ${Math.round(figures[op].perSecond)}/s ${Math.round(figures[op].cpuMicros)} µs ${Math.round(figures[op].bytes)} B`,
    );
    console.log(`round ${round + 1}, secure_delete ${setting}: ${line.join(', ')}`);
  }
}
console.log(`\n${UNITS} units, ${SKILLS} skills, ${CONCURRENCY} requests at a time, ${ROUNDS} rounds: medians`);
console.log(
  '| operation | per second, on / off | ratio (per round) | CPU per operation (µs), on / off | ratio | bytes written per operation, on / off | ratio |',
);
console.log('|---|---|---|---|---|---|---|');
for (const op of OPERATIONS) {
  const cells = (['perSecond', 'cpuMicros', 'bytes'] as const).flatMap((figure) => {
    const on = runs.on.map((r) => r[op][figure]);
    const off = runs.off.map((r) => r[op][figure]);
    const ratio = median(on.map((x, i) => x / off[i]!));
    return [`${Math.round(median(on))} / ${Math.round(median(off))}`, ratio.toFixed(2)];
  });
  console.log(`| ${op} | ${cells.join(' | ')} |`);
}
