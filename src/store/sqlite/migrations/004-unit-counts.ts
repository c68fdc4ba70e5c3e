// Migration 4: unit counts by domain, type and quality bucket.
// Never edit a migration that has shipped: add the next number.
export const name = 'unit counts by domain, type and quality bucket';

export const sql = `
-- Exact list totals without counting rows: how many units each (domain, type, quality bucket) holds,
-- a bucket being floor(quality_score × 100). A total sums whole buckets and counts only the one bucket
-- that min_quality cuts through (see unit-lists.ts). Kept exact by triggers, in the writes' transactions.
CREATE TABLE unit_counts (
  domain TEXT NOT NULL,
  type   TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (domain, type, bucket)
) WITHOUT ROWID;
INSERT INTO unit_counts (domain, type, bucket, n)
  SELECT domain, type, CAST(quality_score * 100 AS INTEGER), count(*) FROM knowledge_units GROUP BY 1, 2, 3;

CREATE TRIGGER unit_counts_insert AFTER INSERT ON knowledge_units BEGIN
  INSERT INTO unit_counts (domain, type, bucket, n) VALUES (new.domain, new.type, CAST(new.quality_score * 100 AS INTEGER), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER unit_counts_delete AFTER DELETE ON knowledge_units BEGIN
  UPDATE unit_counts SET n = n - 1
    WHERE domain = old.domain AND type = old.type AND bucket = CAST(old.quality_score * 100 AS INTEGER);
END;
CREATE TRIGGER unit_counts_update AFTER UPDATE OF quality_score, domain, type ON knowledge_units
  WHEN CAST(old.quality_score * 100 AS INTEGER) != CAST(new.quality_score * 100 AS INTEGER)
    OR old.domain != new.domain OR old.type != new.type
BEGIN
  UPDATE unit_counts SET n = n - 1
    WHERE domain = old.domain AND type = old.type AND bucket = CAST(old.quality_score * 100 AS INTEGER);
  INSERT INTO unit_counts (domain, type, bucket, n) VALUES (new.domain, new.type, CAST(new.quality_score * 100 AS INTEGER), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
`;
