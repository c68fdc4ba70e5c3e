// Saved responses for Idempotency-Key retries (see http/idempotency.ts), written inside the transaction
// of the change they answer, so a retry never applies a change twice.
import * as rows from '../rows.js';
import { IdempotencyKeyTakenError, type IdempotentResponse } from '../store.js';
import type { Prepare } from './connection.js';

/** Keeps the response, replacing only an expired one; fails the whole write if a live one exists. */
export function saveResponse(prepare: Prepare, response: IdempotentResponse | undefined): void {
  if (!response) return;
  const saved = prepare(
    `INSERT INTO idempotency_keys (${rows.IDEMPOTENCY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope, key_hash) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
       body = excluded.body, created_at = excluded.created_at
     WHERE idempotency_keys.created_at < ?`,
  ).run(...rows.idempotencyValues(response));
  if (saved.changes === 0) throw new IdempotencyKeyTakenError();
}

export function purgeResponses(prepare: Prepare, before: string): number {
  return prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(before).changes;
}
