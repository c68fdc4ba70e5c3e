// Creates a benchmark database (a SQLite file under bench/.corpus/, or a fresh PostgreSQL schema) and
// fills it with N corpus units and N/10 skills through the store's bulk path, reporting the load rate.
// Standalone: `tsx bench/load.ts --n 1000000 [--backend postgres]` prepares bench/.corpus/sqlite-1000000.db
// (or the PostgreSQL schema reg_bench_kept_1000000) for `--reuse`.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { hashApiKey, keyPrefixOf } from '../src/domain/keys.js';
import { REWARD_MILLIS } from '../src/domain/reputation.js';
import { openPostgresStore } from '../src/store/postgres/store.js';
import { openSqliteStore } from '../src/store/sqlite/store.js';
import { PrefixTakenError, type SkillImport, type Store, type UnitImport } from '../src/store/store.js';
import {
  CORPUS_VERSION,
  EXPORTER_ID,
  agentKey,
  contributorCount,
  contributorId,
  corpus,
  skillItem,
  unitItem,
  type Corpus,
} from './corpus.js';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const CORPUS_DIR = join(ROOT, 'bench', '.corpus');
const BATCH = 5_000;
const AGENTS_CREATED_AT = '2024-12-31T00:00:00.000Z';

export type Backend = 'sqlite' | 'postgres';

export type Target =
  | { backend: 'sqlite'; n: number; file: string; url: string }
  | { backend: 'postgres'; n: number; adminUrl: string; schema: string; url: string; kept: boolean };

export interface LoadReport {
  units: number;
  skills: number;
  agents: number;
  seconds: number;
  unitsPerSecond: number;
  skillsPerSecond: number;
  /** Database size on disk after loading, MiB. */
  sizeMb: number;
  reused: boolean;
}

interface Manifest {
  corpusVersion: number;
  seed: number;
  n: number;
  report: LoadReport;
}

async function adminQuery(url: string, sql: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The SQLite file for N (kept between runs for --reuse), or a PostgreSQL schema: a new one, or with
 * `reuse` the one kept for N (`reg_bench_kept_<N>`), left in place after the run.
 */
export async function createTarget(backend: Backend, n: number, postgresUrl?: string, reuse = false): Promise<Target> {
  if (backend === 'sqlite') {
    mkdirSync(CORPUS_DIR, { recursive: true });
    const file = join(CORPUS_DIR, `sqlite-${n}.db`);
    return { backend, n, file, url: `sqlite:${file}` };
  }
  if (!postgresUrl) throw new Error('the postgres backend needs REG_TEST_DATABASE_URL');
  const schema = reuse ? `reg_bench_kept_${n}` : `reg_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(postgresUrl, `CREATE SCHEMA IF NOT EXISTS ${schema}`);
  // The service takes only a URL: the schema travels as a startup option in it.
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { backend, n, adminUrl: postgresUrl, schema, url: url.toString(), kept: reuse };
}

export async function dropTarget(target: Target): Promise<void> {
  if (target.backend === 'postgres' && !target.kept)
    await adminQuery(target.adminUrl, `DROP SCHEMA IF EXISTS ${target.schema} CASCADE`);
}

function openStore(target: Target): Promise<Store> {
  if (target.backend === 'sqlite') return Promise.resolve(openSqliteStore(target.url));
  return openPostgresStore(target.adminUrl, { schema: target.schema });
}

function warmPageCache(file: string): void {
  const chunk = Buffer.allocUnsafe(8 << 20);
  const fd = openSync(file, 'r');
  try {
    while (readSync(fd, chunk, 0, chunk.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

const manifestFile = (target: Target) => join(CORPUS_DIR, `${target.backend}-${target.n}.json`);

/** Whether the kept database already holds this corpus (its manifest is written after a complete load). */
async function loadedEarlier(target: Target, seed: number): Promise<Manifest | undefined> {
  if (!existsSync(manifestFile(target))) return undefined;
  const manifest = JSON.parse(readFileSync(manifestFile(target), 'utf8')) as Manifest;
  if (manifest.corpusVersion !== CORPUS_VERSION || manifest.seed !== seed || manifest.n !== target.n) return undefined;
  if (target.backend === 'sqlite') return existsSync(target.file) ? manifest : undefined;
  const [row] = await adminQuery(
    target.adminUrl,
    `SELECT to_regclass('${target.schema}.knowledge_units') IS NOT NULL AS present`,
  );
  return row?.present === true ? manifest : undefined;
}

function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

async function sizeMb(target: Target): Promise<number> {
  if (target.backend === 'sqlite') {
    return sqliteFiles(target.file).reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0) / 2 ** 20;
  }
  const [row] = await adminQuery(
    target.adminUrl,
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '${target.schema}' AND c.relkind = 'r'`,
  );
  return Number(row!.bytes) / 2 ** 20;
}

/** Creates the corpus's agents, each with its deterministic key (another draw if a prefix is taken). */
async function createAgents(store: Store, c: Corpus, n: number): Promise<number> {
  const ids = [EXPORTER_ID, ...Array.from({ length: contributorCount(n) }, (_, k) => contributorId(k))];
  for (const agentId of ids) {
    for (let attempt = 0; ; attempt++) {
      const key = agentKey(c, agentId, attempt);
      try {
        await store.createAgentWithKey({
          agentId,
          keyHash: hashApiKey(key),
          keyPrefix: keyPrefixOf(key),
          scopes: ['read', 'write'],
          tier: 'enterprise',
          createdAt: AGENTS_CREATED_AT,
        });
        break;
      } catch (error) {
        if (!(error instanceof PrefixTakenError) || attempt > 8) throw error;
      }
    }
  }
  return ids.length;
}

/** The exporter's raw key: the first draw whose prefix was free when the corpus was loaded. */
export async function exporterKey(c: Corpus, baseUrl: string): Promise<string> {
  for (let attempt = 0; attempt <= 8; attempt++) {
    const key = agentKey(c, EXPORTER_ID, attempt);
    const res = await fetch(`${baseUrl}/v1/reputation/${EXPORTER_ID}`, { headers: { authorization: `Bearer ${key}` } });
    if (!res.headers.get('www-authenticate')) return key;
  }
  throw new Error('no derived key of the exporter is accepted');
}

/**
 * Fills the target with N units and N/10 skills in batches of BATCH (one transaction each). With `reuse`,
 * a SQLite file or kept PostgreSQL schema already holding this corpus is kept as it is.
 */
export async function loadCorpus(
  target: Target,
  options: { seed?: number; reuse?: boolean; log?: (line: string) => void } = {},
): Promise<LoadReport> {
  const c = corpus(options.seed);
  const log = options.log ?? (() => {});
  const { n } = target;
  const earlier = options.reuse ? await loadedEarlier(target, c.seed) : undefined;
  if (earlier) {
    log(
      `reusing the corpus loaded earlier in ${target.backend === 'sqlite' ? target.file : `schema ${target.schema}`} (writes of earlier runs remain)`,
    );
    // A freshly loaded file is in the OS page cache; a kept one may have been evicted since. Read it
    // once, so that reused and fresh runs both measure a warm server, not the disk.
    if (target.backend === 'sqlite') warmPageCache(target.file);
    return { ...earlier.report, reused: true };
  }
  rmSync(manifestFile(target), { force: true });
  if (target.backend === 'sqlite') for (const f of sqliteFiles(target.file)) rmSync(f, { force: true });
  else if (target.kept)
    await adminQuery(target.adminUrl, `DROP SCHEMA IF EXISTS ${target.schema} CASCADE; CREATE SCHEMA ${target.schema}`);

  const store = await openStore(target);
  try {
    const started = performance.now();
    const agents = await createAgents(store, c, n);
    const skills = Math.floor(n / 10);
    let lastLog = started;
    // The next batch is generated while PostgreSQL works on the current one: generation yields to the
    // event loop now and then, so the import's statements go out meanwhile. (SQLite's import is
    // synchronous; there the two simply alternate.)
    const unitBatch = async (from: number) => {
      const batch: UnitImport[] = [];
      for (let i = from; i < Math.min(n, from + BATCH); i++) {
        batch.push(unitItem(c, i, n));
        if (i % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      return batch;
    };
    let next = await unitBatch(0);
    for (let from = 0; from < n; from += BATCH) {
      const importing = store.importUnits(next, REWARD_MILLIS.contribute_knowledge);
      const done = from + next.length;
      const generating = done < n ? unitBatch(done) : Promise.resolve([]);
      await importing;
      next = await generating;
      const now = performance.now();
      if (now - lastLog > 5_000) {
        log(
          `  ${done.toLocaleString('en')} / ${n.toLocaleString('en')} units, ${Math.round(done / ((now - started) / 1000))}/s`,
        );
        lastLog = now;
      }
    }
    const unitsDone = performance.now();
    for (let from = 0; from < skills; from += BATCH) {
      const batch: SkillImport[] = [];
      for (let i = from; i < Math.min(skills, from + BATCH); i++) batch.push(skillItem(c, i, n));
      await store.importSkills(batch);
    }
    const skillsDone = performance.now();
    if (target.backend === 'postgres') {
      // A live database would have been auto-analyzed after so many inserts; a fresh load has no statistics.
      // On a connection of its own: the store's pool has a statement timeout that a 1M-row VACUUM outlasts.
      const client = new pg.Client({ connectionString: target.adminUrl });
      await client.connect();
      try {
        await client.query('SET statement_timeout = 0');
        for (const table of [
          'agents',
          'api_keys',
          'knowledge_units',
          'skills',
          'skill_versions',
          'skill_tags',
          'reputation_events',
          'search_changes',
        ]) {
          await client.query(`VACUUM ANALYZE ${target.schema}.${table}`);
        }
      } finally {
        await client.end();
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const report: LoadReport = {
      units: n,
      skills,
      agents,
      seconds,
      unitsPerSecond: n / ((unitsDone - started) / 1000),
      skillsPerSecond: skills / Math.max(0.001, (skillsDone - unitsDone) / 1000),
      sizeMb: target.backend === 'postgres' ? await sizeMb(target) : 0,
      reused: false,
    };
    if (target.backend === 'sqlite') {
      await store.close(); // checkpoints the WAL, so the file size is the database's
      report.sizeMb = await sizeMb(target);
    }
    if (target.backend === 'sqlite' || target.kept) {
      const manifest: Manifest = { corpusVersion: CORPUS_VERSION, seed: c.seed, n, report };
      writeFileSync(manifestFile(target), JSON.stringify(manifest, null, 2));
    }
    return report;
  } finally {
    await store.close();
  }
}

// Standalone: prepare a corpus for later runs with --reuse.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--n');
  const n = Number(at >= 0 ? process.argv[at + 1] : NaN);
  if (!Number.isInteger(n) || n <= 0) {
    console.error('usage: tsx bench/load.ts --n <units> [--backend sqlite|postgres]');
    process.exit(2);
  }
  const backend: Backend =
    process.argv.includes('--backend') && process.argv[process.argv.indexOf('--backend') + 1] === 'postgres'
      ? 'postgres'
      : 'sqlite';
  const target = await createTarget(backend, n, process.env.REG_TEST_DATABASE_URL?.trim(), true);
  const report = await loadCorpus(target, { log: console.log, reuse: false });
  console.log(
    `loaded ${report.units} units (${Math.round(report.unitsPerSecond)}/s) and ${report.skills} skills ` +
      `(${Math.round(report.skillsPerSecond)}/s) in ${report.seconds.toFixed(1)} s; ${report.sizeMb.toFixed(0)} MiB at ${target.url}`,
  );
}
