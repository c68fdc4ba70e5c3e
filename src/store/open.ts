// Chooses the store for REG_DATABASE_URL.
import type { Store } from './store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return new SqliteStore(databaseUrl);
  throw new Error('the PostgreSQL store is not available yet: use a sqlite: REG_DATABASE_URL');
}
