// The PostgreSQL plumbing under the store: the pool, statements, transactions, error mapping and the
// migration runner. Nothing here knows about the registry's tables except through migrations.ts.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { findUnstorableText } from '../../domain/text.js';
import { UnstorableTextError } from '../store.js';
import { migrations as allMigrations, type Migration } from './migrations.js';

export type Queryable = Pool | PoolClient;

export interface PoolOptions {
  /** Every connection works in this schema only (tests give each store a fresh one). */
  schema?: string;
  /** Connections per instance; the default suits a single service process. */
  max?: number;
}

/** A fixed key ("reg" in ASCII) that every instance takes before migrating, in any schema of the database. */
export const MIGRATION_LOCK_KEY = 0x726567;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function createPool(url: string, options: PoolOptions = {}): Pool {
  const config: pg.PoolConfig = { connectionString: url, max: options.max ?? 10 };
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
  const pool = new pg.Pool(config);
  // An idle connection that breaks (server restart, network) is dropped and replaced on next use; without
  // a listener that event would crash the process. Queries that fail report through their callers.
  pool.on('error', () => {});
  return pool;
}

const UNSTORABLE_STATES = new Set(['22021', '22P05']); // character_not_in_repertoire, untranslatable_character

/** Text PostgreSQL cannot hold (NUL, bytes that are not UTF-8) becomes UnstorableTextError; routes answer 400. */
export function mapError(error: unknown): unknown {
  const e = error as { code?: unknown; message?: unknown; detail?: unknown };
  const said = `${String(e.message ?? '')} ${String(e.detail ?? '')}`;
  if (UNSTORABLE_STATES.has(String(e.code)) || /invalid byte sequence|\\u0000 cannot be converted/.test(said)) {
    return new UnstorableTextError('text contains characters that cannot be stored (NUL or invalid Unicode)');
  }
  return error;
}

/**
 * Refuses text before it reaches the database: NUL would fail there anyway, but an unpaired surrogate
 * would be silently replaced by U+FFFD when encoded to UTF-8, and a store must not alter what it keeps.
 */
export function refuseUnstorable(value: unknown, name = ''): void {
  const at = findUnstorableText(value, name);
  if (at !== null) throw new UnstorableTextError(`${at} contains characters that cannot be stored (NUL or invalid Unicode)`);
}

/** The constraint a unique violation (SQLSTATE 23505) hit, or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === '23505' ? String(e.constraint ?? '') : null;
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

/** A fixed statement, prepared once per connection. */
export async function run<R extends QueryResultRow>(db: Queryable, text: string, values: unknown[] = []): Promise<QueryResult<R>> {
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
export async function runAdHoc<R extends QueryResultRow>(db: Queryable, text: string, values: unknown[]): Promise<QueryResult<R>> {
  try {
    return await db.query<R>(text, values);
  } catch (error) {
    throw mapError(error);
  }
}

/** Runs `work` in one transaction on one pooled connection; rolls back on any error, always releases. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is destroyed rather than handed to the next caller.
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw mapError(error);
  } finally {
    client.release(broken);
  }
}

/**
 * Applies the migrations not yet recorded in schema_migrations, in order, each in its own transaction.
 * The whole step holds a session-level advisory lock on one dedicated connection: an instance starting
 * at the same moment waits at the lock, then finds every migration recorded and applies none.
 */
export async function migrate(pool: Pool, migrations: Migration[] = allMigrations): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
      );
      const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(done.rows.map((row) => row.version));
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(migration.version)) continue;
        await applyOne(client, migration);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    // Destroying the connection also drops the lock, should the unlock itself have failed.
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

async function applyOne(client: PoolClient, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
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
