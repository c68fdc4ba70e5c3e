// How SQLite's failures reach the registry: what the client may retry (503), and which constraint a
// unique violation hit.
import { StoreUnavailableError } from '../store.js';

/**
 * A database that is locked by another process past busy_timeout, full, or failing I/O has kept nothing
 * of the write: the client may retry (503), it did nothing wrong (not a 500).
 */
export function unavailableOr(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|CANTOPEN|PROTOCOL)/.test(code)) {
    return new StoreUnavailableError(`the database cannot take writes now (${code})`);
  }
  return error;
}

/** Whether `error` is a unique violation of `index` (as SQLite names it: `table.column`). */
export function isUniqueViolation(error: unknown, index: string): boolean {
  const e = error as { code?: string; message?: string };
  return (
    (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') &&
    (e.message ?? '').includes(index)
  );
}
