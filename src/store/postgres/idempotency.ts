// Saved responses for Idempotency-Key retries (see http/idempotency.ts): written inside the transaction
// of the change they answer, so a retry never applies a change twice, even from another instance.
import { IdempotencyKeyTakenError, type IdempotentResponse } from '../store.js';
import * as rows from '../rows.js';
import { run, type Queryable } from './connection.js';

/**
 * Keeps the response, replacing only an expired one. A concurrent request with the same key waits on
 * the primary key until the first commits, then finds a live response and fails: its write rolls back.
 */
export async function saveResponse(db: Queryable, response: IdempotentResponse | undefined): Promise<void> {
  if (!response) return;
  const saved = await run(
    db,
    `INSERT INTO idempotency_keys (${rows.IDEMPOTENCY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (scope, key_hash) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
       body = excluded.body, created_at = excluded.created_at
     WHERE idempotency_keys.created_at < $7`,
    rows.idempotencyValues(response),
  );
  if (saved.rowCount === 0) throw new IdempotencyKeyTakenError();
}

export async function purgeResponses(db: Queryable, before: string): Promise<number> {
  return (await run(db, 'DELETE FROM idempotency_keys WHERE created_at < $1', [before])).rowCount ?? 0;
}
