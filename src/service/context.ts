// What every operation of the registry is given: the store, the configuration, and injectable time and
// ids (so tests are deterministic). REST routes and MCP tools pass the same context.
import type { Config } from '../config/index.js';
import type { IdSource } from '../domain/ids.js';
import type { RegistrySearch } from '../search/index.js';
import type { Caller } from '../domain/caller.js';
import { forbidden } from '../domain/errors.js';
import { QuotaExceededError, type IdempotentResponse, type StorageQuota, type Store } from '../store/store.js';

export interface Context {
  store: Store;
  config: Config;
  clock: () => Date;
  ids: IdSource;
  /** The search index (null in one-off commands that never search: a search is then refused as unavailable). */
  search: RegistrySearch | null;
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

/** The storage quota of the caller's tier (anonymous callers write nothing). */
export function quotaOf(ctx: Context, caller: Caller): StorageQuota | undefined {
  return caller.tier === 'anonymous' ? undefined : ctx.config.quotas[caller.tier];
}

const QUOTA_NOUNS = { units: 'knowledge units', skills: 'skills', bytes: 'bytes of stored text' } as const;

/** A write refused for its quota becomes a 403 that names the quota, the tier and what is held. */
export async function withinQuota<T>(caller: Caller, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    throw forbidden(
      `storage quota exceeded: the ${caller.tier} tier holds at most ${error.limit} ${QUOTA_NOUNS[error.quota]} per agent, ` +
        `and this agent holds ${error.used}; delete some, or ask an operator for a higher tier`,
    );
  }
}
