// npm run bench [-- --quick] [--sizes 10000,100000] [--backend sqlite|postgres] [--duration s]
//   [--connections n] [--reuse] [--server build|tsx|dist] [--scenarios contribute,publish,…] [--label name]
//   [--cpu-prof dir] [--write-warmup s]
// --scenarios runs only those (see scenarios.ts for the names); --label keeps the results apart from the
// full runs, as <backend>-<N>-<name>.json, and the summary compares the backends of each label.
// --cpu-prof writes a V8 CPU profile of each service process into dir (node --cpu-prof) when it stops.
// --write-warmup runs each write scenario that long before measuring it (by default writes are measured
// from their first request, which includes the search index making room for the first new items).
// For each backend and size: load the corpus through the bulk path, start the real service as a child
// process and drive it with autocannon; the ceiling is measured once per size under the same load. Prints a table and
// write bench/results/<backend>-<N>.json and bench/results/summary.md.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildServer } from './build.js';
import { EXPORTER_ID, corpus, unitItem } from './corpus.js';
import {
  CORPUS_DIR,
  ROOT,
  createTarget,
  dropTarget,
  exporterKey,
  loadCorpus,
  type Backend,
  type Target,
} from './load.js';
import { measureExport, measureLoad, type LoadOptions, type Measurement } from './measure.js';
import { readMemory, startProcess, type Running } from './processes.js';
import {
  checkTargets,
  printTable,
  printTargets,
  writeResult,
  writeSummary,
  type RunResult,
  type ScenarioResult,
} from './report.js';
import { medianMatches, scenarios } from './scenarios.js';
import { summarizeUnit } from '../src/domain/summaries.js';

interface Args {
  quick: boolean;
  sizes: number[];
  backends: Backend[];
  connections: number;
  duration: number;
  warmup: number;
  exportRepeats: number;
  reuse: boolean;
  server: 'build' | 'tsx' | 'dist';
  /** Only these scenarios (every one when absent). */
  scenarios: Set<string> | null;
  label: string | undefined;
  cpuProfileDir: string | undefined;
  writeWarmup: number;
}

const RESULTS_DIR = join(ROOT, 'bench', 'results');
const BUILD_DIR = join(CORPUS_DIR, 'build');
const VALIDATORS = 50;

function parseArgs(argv: string[]): Args {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    if (at === -1) return undefined;
    const v = argv[at + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v;
  };
  const known = new Set([
    '--quick',
    '--sizes',
    '--backend',
    '--duration',
    '--connections',
    '--reuse',
    '--server',
    '--scenarios',
    '--label',
    '--cpu-prof',
    '--write-warmup',
  ]);
  for (const a of argv)
    if (a.startsWith('--') && !known.has(a)) throw new Error(`unknown option ${a}; see bench/run.ts`);
  const quick = argv.includes('--quick');
  const sizes = (value('--sizes') ?? (quick ? '10000' : '10000,100000,1000000')).split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 100)) throw new Error('--sizes takes integers of at least 100');
  const pgUrl = process.env.REG_TEST_DATABASE_URL?.trim();
  const backend = value('--backend');
  if (backend !== undefined && backend !== 'sqlite' && backend !== 'postgres')
    throw new Error('--backend is sqlite or postgres');
  if (backend === 'postgres' && !pgUrl) throw new Error('--backend postgres needs REG_TEST_DATABASE_URL');
  const backends: Backend[] = backend ? [backend] : pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  const server = value('--server') ?? 'build';
  if (server !== 'build' && server !== 'tsx' && server !== 'dist') throw new Error('--server is build, tsx or dist');
  const duration = Number(value('--duration') ?? (quick ? 2 : 10));
  const connections = Number(value('--connections') ?? 10);
  return {
    quick,
    sizes,
    backends,
    connections,
    duration,
    warmup: quick ? 0.5 : 2,
    exportRepeats: quick ? 1 : 3,
    reuse: argv.includes('--reuse'),
    server,
    scenarios: value('--scenarios') === undefined ? null : new Set(value('--scenarios')!.split(',')),
    label: labelOf(value('--label')),
    cpuProfileDir: value('--cpu-prof'),
    writeWarmup: Number(value('--write-warmup') ?? 0),
  };
}

function labelOf(label: string | undefined): string | undefined {
  if (label !== undefined && !/^[a-z0-9][a-z0-9-]{0,40}$/.test(label))
    throw new Error('--label takes lower-case letters, digits and hyphens');
  return label;
}

function serverCommand(args: Args): string[] {
  const node = [
    process.execPath,
    ...(args.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${args.cpuProfileDir}`] : []),
  ];
  if (args.server === 'tsx') return [...node, '--import', 'tsx', 'src/main.ts'];
  if (args.server === 'dist') {
    if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('--server dist needs `npm run build` first');
    return [...node, 'dist/main.js'];
  }
  return [...node, join(BUILD_DIR, 'src', 'main.js')];
}

const SERVICE_ENV = {
  // Lexical ranking: the synthetic corpus is not language a model could embed meaningfully, and embedding
  // 1M units takes hours; hybrid latency on real skills is measured by `npm run eval:search`.
  REG_EMBEDDINGS: 'none',
  REG_LOG_LEVEL: 'warn', // no per-request log lines: the benchmark measures the service, not its log volume
  REG_RATE_LIMIT_ANONYMOUS: '10000000',
  REG_RATE_LIMIT_FREE: '10000000',
  REG_RATE_LIMIT_PRO: '10000000',
  REG_RATE_LIMIT_ENTERPRISE: '10000000',
};

/**
 * A kept PostgreSQL schema's search snapshot, beside the corpus files, so that its next run restarts from
 * it as a SQLite file's does (a PostgreSQL instance keeps none unless told where); dropped with a fresh
 * load. An explicit REG_SEARCH_SNAPSHOT_DIR is left as it is.
 */
function searchSnapshotEnv(target: Target, reused: boolean): Record<string, string> {
  if (target.backend !== 'postgres' || !target.kept || process.env.REG_SEARCH_SNAPSHOT_DIR) return {};
  const dir = join(CORPUS_DIR, `postgres-${target.n}.search`);
  if (!reused) rmSync(dir, { recursive: true, force: true });
  return { REG_SEARCH_SNAPSHOT_DIR: dir };
}

/** Waits until /readyz answers that the search index is loaded (it answers 503 meanwhile, and so do searches). */
async function untilSearchIndexed(baseUrl: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    // A busy server may drop a connection now and then while it builds: the question is asked again.
    const body = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.json() as Promise<{ search?: { indexed?: boolean; pending?: number } }>,
      () => ({}) as { search?: undefined },
    );
    if (body.search?.indexed && body.search.pending === 0) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function post(url: string, body: unknown): Promise<{ data: { api_key: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { data: { api_key: string } };
}

/** Agents new to this run: a contributor and validators that have never given a verdict. */
async function registerRunAgents(baseUrl: string) {
  const tag = Date.now().toString(36);
  const register = (agent_id: string, scopes: string[]) =>
    post(`${baseUrl}/v1/auth/register`, { agent_id, scopes, tier: 'enterprise' }).then((r) => r.data.api_key);
  const contributorKey = await register(`bench-contributor-${tag}`, ['read', 'write']);
  const publisherKey = await register(`bench-publisher-${tag}`, ['read', 'write']);
  const validatorKeys: string[] = [];
  for (let v = 0; v < VALIDATORS; v++) validatorKeys.push(await register(`bench-validator-${tag}-${v}`, ['read']));
  return { contributorKey, validatorKeys, publisherKey };
}

async function benchOne(
  args: Args,
  target: Target,
  ceiling: Measurement,
  log: (line: string) => void,
): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const c = corpus();
  log(`${target.backend}, ${target.n.toLocaleString('en')} units: loading`);
  const load = await loadCorpus(target, { reuse: args.reuse, log });
  log(
    `  loaded in ${load.seconds.toFixed(1)} s (${Math.round(load.unitsPerSecond)} units/s, ${Math.round(load.skillsPerSecond)} skills/s)`,
  );

  const service: Running = await startProcess(
    serverCommand(args),
    { ...SERVICE_ENV, REG_DATABASE_URL: target.url, ...searchSnapshotEnv(target, load.reused) },
    ROOT,
  );
  const scenarioResults: ScenarioResult[] = [];
  let result: RunResult;
  const options: LoadOptions = {
    connections: args.connections,
    duration: args.duration,
    warmup: args.warmup,
    pid: service.pid,
  };
  try {
    const startupMs = service.startupMs;
    const searchIndexMs = await untilSearchIndexed(service.url);
    const idleRssMb = readMemory(service.pid).rssMb;
    log(
      `  service healthy after ${Math.round(startupMs)} ms, search index built after ${Math.round(searchIndexMs)} ms more, RSS ${Math.round(idleRssMb)} MiB`,
    );
    const agents = await registerRunAgents(service.url);
    const all = scenarios({ c, n: target.n, ...agents });
    const unknown = [...(args.scenarios ?? [])].filter((name) => !all.some((s) => s.name === name));
    if (unknown.length > 0)
      throw new Error(`no scenario named ${unknown.join(', ')}; there are ${all.map((s) => s.name).join(', ')}`);
    const chosen = all.filter((s) => args.scenarios?.has(s.name) ?? true);
    for (const scenario of chosen) {
      const matches = scenario.samplePaths ? await medianMatches(service.url, scenario.samplePaths) : undefined;
      const m = await measureLoad(service.url, scenario.requests, {
        ...options,
        warmup: scenario.read ? args.warmup : args.writeWarmup,
      });
      const ratio = m.rps / ceiling.rps;
      // Reads again from one client alone: the latency an agent sees when it is not queued behind others.
      const alone = scenario.read
        ? await measureLoad(service.url, scenario.requests, { ...options, connections: 1, warmup: 0 })
        : undefined;
      const single = alone ? { rps: alone.rps, p50: alone.p50, p99: alone.p99 } : undefined;
      scenarioResults.push({
        name: scenario.name,
        label: scenario.label,
        ratio,
        ...m,
        ...(matches === undefined ? {} : { matches }),
        ...(single ? { single } : {}),
      });
      log(
        `  ${scenario.name}: ${Math.round(m.rps)} req/s, p99 ${m.p99.toFixed(2)} ms` +
          `${single ? `; one client p99 ${single.p99.toFixed(2)} ms` : ''}${m.non2xx + m.errors ? ` (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}`,
      );
    }
    const peakBeforeExport = readMemory(service.pid).hwmMb;
    const key = await exporterKey(c, service.url);
    const exported = await measureExport(
      `${service.url}/v1/export/${EXPORTER_ID}`,
      key,
      service.pid,
      args.exportRepeats,
    );
    log(
      `  export: ${exported.units} units in ${Math.round(exported.totalMs)} ms, peak RSS ${Math.round(exported.rssPeakMb)} MiB`,
    );
    result = {
      backend: target.backend,
      n: target.n,
      ...(args.label ? { label: args.label } : {}),
      mode: args.quick ? 'quick' : 'full',
      startedAt,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
      },
      settings: {
        connections: args.connections,
        duration: args.duration,
        warmup: args.warmup,
        ...(args.writeWarmup > 0 ? { writeWarmup: args.writeWarmup } : {}),
        server: args.server,
      },
      load,
      startupMs,
      searchIndexMs,
      idleRssMb,
      scenarios: scenarioResults,
      export: { ...exported, expectedUnits: Math.ceil(target.n / 10) },
      peakRssMb: Math.max(peakBeforeExport, exported.rssPeakMb),
      ceiling,
    };
  } finally {
    const code = await service.stop();
    if (code !== 0) log(`  service exited with ${code}:\n${service.output()}`);
  }

  return result;
}

/**
 * The ceiling, alone on the machine and under the same load as the service: a page of 20 corpus units
 * (the shape and size of a search or list page) served from memory.
 */
async function measureCeiling(args: Args, n: number, log: (line: string) => void): Promise<Measurement> {
  const c = corpus();
  const units = Array.from({ length: 20 }, (_, i) => summarizeUnit(unitItem(c, i, n).unit));
  const pageFile = join(CORPUS_DIR, 'ceiling-page.json');
  writeFileSync(pageFile, JSON.stringify({ data: units, total: n, offset: 0, limit: 20 }));
  const command =
    args.server === 'build'
      ? [process.execPath, join(BUILD_DIR, 'bench', 'ceiling.js')]
      : [process.execPath, '--import', 'tsx', 'bench/ceiling.ts'];
  const ceiling = await startProcess(command, { BENCH_CEILING_PAGE: pageFile }, ROOT);
  try {
    const options = { connections: args.connections, duration: args.duration, warmup: args.warmup, pid: ceiling.pid };
    const m = await measureLoad(ceiling.url, [{ method: 'GET', path: '/v1/knowledge' }], options);
    log(`ceiling: ${Math.round(m.rps)} req/s, p99 ${m.p99.toFixed(2)} ms`);
    return m;
  } finally {
    await ceiling.stop();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const log = (line: string) =>
    console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
  if (args.server === 'build') {
    const compiled = buildServer(ROOT, BUILD_DIR, ['bench/ceiling.ts']);
    log(`service compiled to ${BUILD_DIR} (${compiled} files changed)`);
  }
  const done: RunResult[] = [];
  for (const n of args.sizes) {
    // Once per size, before the backends, so that every backend of the size is held against the same one.
    const ceiling = await measureCeiling(args, n, log);
    for (const backend of args.backends) {
      const target = await createTarget(backend, n, process.env.REG_TEST_DATABASE_URL?.trim(), args.reuse);
      try {
        const r = await benchOne(args, target, ceiling, log);
        done.push(r);
        const file = writeResult(RESULTS_DIR, r);
        printTable(r);
        printTargets(
          r,
          done.find((b) => b.backend === r.backend && b.n === 10_000),
        );
        console.log(`written to ${file}\n`);
      } finally {
        await dropTarget(target);
      }
    }
  }
  const summary = writeSummary(RESULTS_DIR);
  log(`summary: ${summary}`);
  const misses = done.flatMap((r) => checkTargets(r).filter((t) => t.met === false));
  log(
    `finished in ${((performance.now() - started) / 1000).toFixed(1)} s${misses.length ? ` (${misses.length} indicative targets not met)` : ''}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
