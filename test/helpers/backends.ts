// The stores every shared suite runs against: SQLite in memory always, PostgreSQL when
// REG_TEST_DATABASE_URL names a database (each store then gets a schema of its own, dropped on close).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { PoolOptions } from '../../src/store/postgres/connection.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';

/** One database that several instances of the service open, as when they start side by side. */
export interface SharedDatabase {
  /** Starts one more instance on it (opening runs the migrations). */
  start(): Promise<Store>;
  /** The migration versions the database has recorded. */
  appliedMigrations(): Promise<number[]>;
  /** Runs SQL on the database directly, outside any store (to take it back to an older schema). */
  exec(sql: string): Promise<void>;
  /** Removes the database; every instance must be closed first. */
  drop(): Promise<void>;
  /** PostgreSQL: the schema the database lives in (for a connection of a test's own). */
  schema?: string;
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** A new, empty store of this backend (PostgreSQL takes pool options: size, timeouts). */
  open(options?: PoolOptions): Promise<Store>;
  /** A new, empty database that several instances share. */
  shared(): Promise<SharedDatabase>;
}

const sqlite: Backend = {
  name: 'sqlite',
  open: async () => openSqliteStore('sqlite::memory:'),
  shared: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reg-test-'));
    const file = join(dir, 'registry.db');
    return {
      start: async () => openSqliteStore(`sqlite:${file}`),
      appliedMigrations: async () => {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
        } finally {
          db.close();
        }
      },
      exec: async (sql) => {
        const db = new Database(file);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** Runs one statement on a connection of its own, outside any store. */
export async function adminQuery<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

let unaccentReady: Promise<void> | undefined;

/**
 * Installs unaccent in `public` once per run, before any test schema exists. Otherwise the first
 * migration would create it inside its own test schema, and dropping that schema would take the
 * extension, and with it the search configuration of every other test schema, along.
 */
function prepareDatabase(url: string): Promise<void> {
  unaccentReady ??= adminQuery(url, 'CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public').then(
    () => {},
    (error: { code?: string }) => {
      // Another run created it at the same moment (23505/42710); anything else: migrations fall back.
      if (error.code !== '23505' && error.code !== '42710') console.log(`unaccent not installed: ${String(error)}`);
    },
  );
  return unaccentReady;
}

export async function freshSchema(url: string): Promise<string> {
  await prepareDatabase(url);
  const schema = `reg_test_${randomBytes(8).toString('hex')}`;
  await adminQuery(url, `CREATE SCHEMA ${schema}`);
  return schema;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}

/** A PostgreSQL store in a fresh schema (through `url`, which may be a proxy), dropped on close via `adminUrl`. */
export async function openPostgres(
  adminUrl: string,
  options: PoolOptions = {},
  url = adminUrl,
): Promise<PostgresStore & { schema: string }> {
  const schema = await freshSchema(adminUrl);
  let store: PostgresStore;
  try {
    store = await openPostgresStore(url, { ...options, schema });
  } catch (error) {
    await dropSchema(adminUrl, schema); // a store that never opened leaves no schema behind
    throw error;
  }
  const closeStore = store.close.bind(store);
  store.close = async () => {
    await closeStore();
    await dropSchema(adminUrl, schema);
  };
  return Object.assign(store, { schema });
}

function postgres(url: string): Backend {
  return {
    name: 'postgres',
    open: (options) => openPostgres(url, options),
    shared: async () => {
      const schema = await freshSchema(url);
      return {
        schema,
        start: () => openPostgresStore(url, { schema }),
        appliedMigrations: async () =>
          (
            await adminQuery<{ version: number }>(
              url,
              `SELECT version FROM ${schema}.schema_migrations ORDER BY version`,
            )
          ).map((row) => row.version),
        exec: async (sql) => {
          await adminQuery(url, `SET search_path TO ${schema}; ${sql}`);
        },
        drop: () => dropSchema(url, schema),
      };
    },
  };
}

/** The PostgreSQL database of this run, or undefined when REG_TEST_DATABASE_URL is not set. */
export function postgresUrl(): string | undefined {
  return process.env.REG_TEST_DATABASE_URL?.trim() || undefined;
}

export type LinkMode = 'pass' | 'refuse' | 'silent';

/**
 * A TCP proxy in front of PostgreSQL that a test can break: `refuse` resets every connection and closes
 * the port (a server down), `silent` keeps every connection, and accepts new ones, but never forwards a
 * byte again (a partition or a hung server), `pass` forwards (connections from before are dropped).
 */
export interface FaultyLink {
  url: string;
  set(mode: LinkMode): Promise<void>;
  close(): Promise<void>;
}

export async function faultyLink(targetUrl: string): Promise<FaultyLink> {
  const target = new URL(targetUrl);
  const pairs = new Set<Socket>();
  let mode: LinkMode = 'pass';
  const server = createServer((client) => {
    pairs.add(client);
    client.on('error', () => {});
    client.on('close', () => pairs.delete(client));
    if (mode !== 'pass') return; // silent: accepted, never answered
    const upstream = new Socket();
    upstream.on('error', () => client.destroy());
    upstream.connect(Number(target.port || 5432), target.hostname);
    const live = mode;
    // Bytes flow only while the link passes; a silent link swallows them in both directions.
    client.on('data', (data) => mode === live && upstream.write(data));
    upstream.on('data', (data) => mode === live && client.write(data));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => mode === live && client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const dropAll = () => {
    for (const socket of pairs) socket.destroy();
    pairs.clear();
  };
  return {
    url: url.toString(),
    async set(next) {
      if (next === mode) return;
      const wasRefusing = mode === 'refuse';
      mode = next;
      if (next === 'refuse') {
        dropAll();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      } else if (wasRefusing) {
        await listen(port);
      } else if (next === 'pass') {
        dropAll(); // their protocol streams lost bytes while silent
      }
    },
    async close() {
      mode = 'refuse';
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let announced = false;

export function backends(): Backend[] {
  const url = postgresUrl();
  if (url) return [sqlite, postgres(url)];
  if (!announced) {
    announced = true;
    console.log('postgres backend skipped: REG_TEST_DATABASE_URL is not set');
  }
  return [sqlite];
}
