// Chooses the store for REG_DATABASE_URL.
import type { Store } from './store.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return new SqliteStore(databaseUrl);
  // Opens the pool and applies pending migrations (under an advisory lock) before answering.
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return PostgresStore.open(databaseUrl);
  throw new Error('REG_DATABASE_URL must start with sqlite:, postgres:// or postgresql://');
}
