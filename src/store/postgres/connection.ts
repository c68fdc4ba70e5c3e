// The PostgreSQL connection: the pool, statements, transactions and the migration runner. Nothing here
// knows about the registry's tables except through migrations/.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { StoreUnavailableError } from '../store.js';
import { adoptForeignChangeLog, TX_IN_CHANGE_LOG } from './change-log.js';
import { mapError } from './errors.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

export type Queryable = Pool | PoolClient;

/** Where the store reports what no request sees (a pino logger fits). */
export interface StoreLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface Timeouts {
  /** Opening a connection, or waiting for a free one when the pool is full. */
  connectMs: number;
  /** Server-side limit per statement; the client gives up on a silent server shortly after. */
  statementMs: number;
  /** A session left idle inside a transaction (a wedged instance) is ended, releasing its row locks. */
  idleInTransactionMs: number;
  /** How long start-up waits for another instance's migrations before it gives up. */
  migrationLockMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  idleInTransactionMs: 15_000,
  migrationLockMs: 60_000,
};

export interface PoolOptions {
  /** Every connection works in this schema only (tests give each store a fresh one). */
  schema?: string;
  /** Connections per instance (REG_DATABASE_POOL_MAX). */
  max?: number;
  log?: StoreLog;
  timeouts?: Partial<Timeouts>;
}

/** A fixed key ("reg" in ASCII) that every instance takes before migrating, in any schema of the database. */
export const MIGRATION_LOCK_KEY = 0x726567;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// Time the client waits beyond statement_timeout before deciding the server has gone silent.
const SILENT_SERVER_GRACE_MS = 2_000;
const LOCK_POLL_MS = 250;
const LOCK_LOG_EVERY_MS = 10_000;

export function timeoutsOf(options: PoolOptions): Timeouts {
  return { ...DEFAULT_TIMEOUTS, ...options.timeouts };
}

/** What every connection shares: address, schema, connect timeout and TCP keep-alive. */
function connectionConfig(url: string, options: PoolOptions): pg.ClientConfig {
  const config: pg.ClientConfig = {
    connectionString: url,
    connectionTimeoutMillis: timeoutsOf(options).connectMs,
    keepAlive: true,
  };
  if (options.schema !== undefined) {
    if (!SCHEMA_NAME.test(options.schema)) throw new Error(`not a plain schema name: ${options.schema}`);
    // A startup parameter, not a SET after connecting: no query can ever run before it applies. node-postgres
    // lets a URL's own `options` replace ours, so the URL's are taken out and merged.
    const parsed = new URL(url);
    const own = parsed.searchParams.get('options');
    parsed.searchParams.delete('options');
    config.connectionString = parsed.toString();
    config.options = [own, `-c search_path=${options.schema}`].filter(Boolean).join(' ');
  }
  return config;
}

/**
 * The instance's pool. `pipelined`: each connection sends a statement without waiting for the answer to
 * the one before (pg's pipeline mode; answers still come in order, each statement with its own outcome),
 * for a caller that issues a statement it does not need to wait for (group-commit.ts's savepoints).
 */
export function createPool(url: string, options: PoolOptions = {}, pipelined = false): Pool {
  const timeouts = timeoutsOf(options);
  const pool = new pg.Pool({
    ...connectionConfig(url, options),
    pipeline: pipelined,
    max: options.max ?? 10,
    statement_timeout: timeouts.statementMs,
    // Client side: a server that accepts a query and never answers (partition, frozen host) fails it too.
    query_timeout: timeouts.statementMs + SILENT_SERVER_GRACE_MS,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  });
  // An idle connection that breaks (server restart, network) is dropped and replaced on next use; without
  // a listener that event would crash the process.
  pool.on('error', (error: Error & { code?: string }) => {
    options.log?.warn(
      { reason: error.message, code: error.code },
      'an idle PostgreSQL connection broke; it is replaced on next use',
    );
  });
  return pool;
}

const names = new Map<string, string>();

/** Named after its text, so each pooled connection parses and plans a fixed statement once. */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `reg_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A fixed statement, prepared once per connection. Its columns must be listed, never `*`: a prepared
 * `SELECT *` fails with "cached plan must not change result type" once a newer instance adds a column.
 */
export async function run<R extends QueryResultRow>(
  db: Queryable,
  text: string,
  values: unknown[] = [],
): Promise<QueryResult<R>> {
  try {
    return await db.query<R>({ name: statementName(text), text, values });
  } catch (error) {
    throw mapError(error);
  }
}

/**
 * A statement built per request (list filters): left unnamed, so PostgreSQL plans it for the actual
 * values every time instead of settling on one generic plan for all filter values.
 */
export async function runAdHoc<R extends QueryResultRow>(
  db: Queryable,
  text: string,
  values: unknown[],
): Promise<QueryResult<R>> {
  try {
    return await db.query<R>(text, values);
  } catch (error) {
    throw mapError(error);
  }
}

/** `BEGIN` for writes; reads that must agree with each other pass a snapshot mode. */
export const READ_ONE_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** Runs `work` in one transaction on one pooled connection; rolls back on any error, always releases. */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw mapError(error);
  }
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    const mapped = mapError(error);
    if (mapped instanceof StoreUnavailableError) {
      // The connection is gone or stuck behind an unanswered query: a ROLLBACK would only wait on it.
      // Destroying it ends the session, and the server rolls the transaction back itself.
      broken = mapped;
    } else {
      // A connection that cannot even roll back is destroyed rather than handed to the next caller.
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
    }
    throw mapped;
  } finally {
    client.release(broken);
  }
}

/**
 * Applies the migrations not yet recorded in schema_migrations, in order, each in its own transaction,
 * on a connection of its own (outside the pool, so no statement timeout cuts a long migration short).
 * The whole step holds a session-level advisory lock: an instance starting at the same moment waits for
 * it, then finds every migration recorded and applies none. It waits at most `migrationLockMs`, so an
 * instance wedged while holding the lock makes the others fail with a message instead of hanging.
 */
export async function migrate(
  url: string,
  options: PoolOptions = {},
  migrations: Migration[] = allMigrations,
): Promise<void> {
  const client = new pg.Client(connectionConfig(url, options));
  // A connection that breaks mid-migration rejects the query in flight; without a listener it would crash.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw mapError(error);
  }
  try {
    await takeMigrationLock(client, timeoutsOf(options).migrationLockMs, options.log);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
    );
    const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(done.rows.map((row) => row.version));
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await applyOne(client, migration);
    }
    const schema = Math.max(0, ...applied, ...migrations.map((m) => m.version));
    if (schema >= TX_IN_CHANGE_LOG && (await adoptForeignChangeLog(client)))
      options.log?.warn(
        {},
        'the change log came from another PostgreSQL cluster (a restored dump): search indexes rebuild',
      );
  } finally {
    // Ending the session releases the advisory lock with it, whatever happened above.
    await client.end().catch(() => {});
  }
}

async function takeMigrationLock(client: pg.Client, waitMs: number, log: StoreLog | undefined): Promise<void> {
  const started = Date.now();
  let nextLog = started;
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      MIGRATION_LOCK_KEY,
    ]);
    if (rows[0]!.locked) return;
    const waited = Date.now() - started;
    if (waited >= waitMs) {
      const holder = await migrationLockHolder(client);
      throw new Error(
        `gave up after ${Math.round(waited / 1000)} s waiting for the migration lock, held by PostgreSQL backend pid ${holder}: ` +
          'another instance is migrating or is stuck while migrating. Let it finish, or stop it ' +
          `(SELECT pg_terminate_backend(${holder})), then start this instance again`,
      );
    }
    if (Date.now() >= nextLog) {
      log?.warn(
        { waitedMs: waited, holderPid: await migrationLockHolder(client) },
        'waiting for another instance to finish migrating',
      );
      nextLog += LOCK_LOG_EVERY_MS;
    }
    await sleep(Math.min(LOCK_POLL_MS, waitMs - waited));
  }
}

/** The backend holding the migration lock (a one-argument advisory lock: objsubid 1, key in objid). */
async function migrationLockHolder(client: pg.Client): Promise<number | null> {
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid = 0 AND objid = $1
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [MIGRATION_LOCK_KEY],
  );
  return rows[0]?.pid ?? null;
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await migration.backfill?.(client);
    await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
      migration.version,
      migration.name,
      new Date().toISOString(),
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The versions recorded as applied, in order (for operators and tests). */
export async function appliedMigrations(db: Queryable): Promise<number[]> {
  const result = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return result.rows.map((row) => row.version);
}
