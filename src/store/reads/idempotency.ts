// Saved answers for Idempotency-Key retries, read once for every backend (each backend saves them inside
// the transaction of the change they answer).
import * as rows from '../rows.js';
import { raw, sql, type Db } from '../sql.js';
import type { IdempotencyStore } from '../store.js';

export function idempotencyReads(db: Db): Pick<IdempotencyStore, 'findIdempotentResponse'> {
  return {
    async findIdempotentResponse(scope, keyHash, notBefore) {
      const row = await db.get<rows.IdempotencyRow>(
        sql`SELECT ${raw(rows.IDEMPOTENCY_COLUMNS)} FROM idempotency_keys WHERE scope = ${scope} AND key_hash = ${keyHash} AND created_at >= ${notBefore}`,
      );
      return row ? rows.toSavedResponse(row) : null;
    },
  };
}
