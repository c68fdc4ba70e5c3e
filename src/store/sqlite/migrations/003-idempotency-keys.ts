// Migration 3: idempotency keys.
// Never edit a migration that has shipped: add the next number.
export const name = 'idempotency keys';

export const sql = `
-- 2xx responses to POSTs sent with an Idempotency-Key, kept 24 hours (sealed: see http/idempotency.ts).
CREATE TABLE idempotency_keys (
  scope        TEXT NOT NULL,
  key_hash     TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status       INTEGER NOT NULL,
  body         TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (scope, key_hash)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`;
