// What every operation of the registry is given: the store, the configuration, and injectable time and
// ids (so tests are deterministic). REST routes and MCP tools pass the same context.
import type { Config } from '../config.js';
import type { IdSource } from '../domain/ids.js';
import type { IdempotentResponse, Store } from '../store/store.js';

export interface Context {
  store: Store;
  config: Config;
  clock: () => Date;
  ids: IdSource;
}

/**
 * A change prepared but not yet written: the answer it will give, and the write that makes it true.
 * The door applies it: REST saves the answer under an Idempotency-Key in the write's own transaction
 * (`write(response)`); other doors simply write it.
 */
export interface Change<T> {
  status: number;
  body: T;
  /** When the change was made (the idempotent response's timestamp). */
  at: Date;
  write(response?: IdempotentResponse): Promise<void>;
}

/** Applies a change without an idempotency record and answers its body. */
export async function applyChange<T>(change: Change<T>): Promise<T> {
  await change.write();
  return change.body;
}
