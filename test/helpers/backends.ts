// The stores every shared suite runs against: SQLite in memory always, PostgreSQL when
// REG_TEST_DATABASE_URL names a database (each store then gets a schema of its own, dropped on close).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

/** One database that several instances of the service open, as when they start side by side. */
export interface SharedDatabase {
  /** Starts one more instance on it (opening runs the migrations). */
  start(): Promise<Store>;
  /** The migration versions the database has recorded. */
  appliedMigrations(): Promise<number[]>;
  /** Removes the database; every instance must be closed first. */
  drop(): Promise<void>;
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** A new, empty store of this backend. */
  open(): Promise<Store>;
  /** A new, empty database that several instances share. */
  shared(): Promise<SharedDatabase>;
}

const sqlite: Backend = {
  name: 'sqlite',
  open: async () => new SqliteStore('sqlite::memory:'),
  shared: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reg-test-'));
    const file = join(dir, 'registry.db');
    return {
      start: async () => new SqliteStore(`sqlite:${file}`),
      appliedMigrations: async () => {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
        } finally {
          db.close();
        }
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** Runs one statement on a connection of its own, outside any store. */
async function adminQuery<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

function postgres(url: string): Backend {
  const freshSchema = async () => {
    const schema = `reg_test_${randomBytes(8).toString('hex')}`;
    await adminQuery(url, `CREATE SCHEMA ${schema}`);
    return schema;
  };
  const dropSchema = async (schema: string) => {
    await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  };
  return {
    name: 'postgres',
    open: async () => {
      const schema = await freshSchema();
      const store = await PostgresStore.open(url, { schema });
      const closeStore = store.close.bind(store);
      store.close = async () => {
        await closeStore();
        await dropSchema(schema);
      };
      return store;
    },
    shared: async () => {
      const schema = await freshSchema();
      return {
        start: () => PostgresStore.open(url, { schema }),
        appliedMigrations: async () =>
          (await adminQuery<{ version: number }>(url, `SELECT version FROM ${schema}.schema_migrations ORDER BY version`)).map(
            (row) => row.version,
          ),
        drop: () => dropSchema(schema),
      };
    },
  };
}

let announced = false;

export function backends(): Backend[] {
  const url = process.env.REG_TEST_DATABASE_URL?.trim();
  if (url) return [sqlite, postgres(url)];
  if (!announced) {
    announced = true;
    console.log('postgres backend skipped: REG_TEST_DATABASE_URL is not set');
  }
  return [sqlite];
}
