// Chooses the store for REG_DATABASE_URL.
import type { Store } from './store.js';
import type { StoreLog } from './postgres/connection.js';
import { openPostgresStore } from './postgres/store.js';
import { openSqliteStore } from './sqlite/store.js';

export interface OpenOptions {
  /** PostgreSQL connections per instance. */
  poolMax?: number;
  /** SQLite worker threads for lists (none by default: a CLI or a test needs none). */
  sqliteReadWorkers?: number;
  /** Where a PostgreSQL store reports broken idle connections and waits for the migration lock. */
  log?: StoreLog;
}

export async function openStore(databaseUrl: string, options: OpenOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:'))
    return openSqliteStore(databaseUrl, { readWorkers: options.sqliteReadWorkers ?? 0 });
  // Opens the pool and applies pending migrations (under an advisory lock) before answering.
  if (/^postgres(ql)?:\/\//.test(databaseUrl))
    return openPostgresStore(databaseUrl, { max: options.poolMax, log: options.log });
  throw new Error('REG_DATABASE_URL must start with sqlite:, postgres:// or postgresql://');
}
