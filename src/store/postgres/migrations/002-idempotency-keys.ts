// Migration 2: idempotency keys.
// Never edit a migration that has shipped: add the next number.
export const name = 'idempotency keys';

export const sql = `
-- 2xx responses to POSTs sent with an Idempotency-Key, kept 24 hours (sealed: see http/idempotency.ts).
CREATE TABLE idempotency_keys (
  scope        text COLLATE "C" NOT NULL,
  key_hash     text COLLATE "C" NOT NULL,
  request_hash text NOT NULL,
  status       integer NOT NULL,
  body         text NOT NULL,
  created_at   text COLLATE "C" NOT NULL,
  PRIMARY KEY (scope, key_hash)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`;
