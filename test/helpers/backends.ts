// The stores every shared suite runs against. SQLite in memory always; more backends join here.
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

export interface Backend {
  name: string;
  /** A new, empty store of this backend. */
  open(): Promise<Store>;
}

export function backends(): Backend[] {
  return [{ name: 'sqlite', open: async () => new SqliteStore('sqlite::memory:') }];
}
