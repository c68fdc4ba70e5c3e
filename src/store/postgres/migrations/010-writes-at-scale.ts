// Migration 10: exact unit list totals without counting rows, as SQLite's migration 4 keeps them, but
// without a counter row that concurrent writers would queue on: a write's triggers append what it changed
// (unit_count_changes), and the store folds those rows into unit_counts every second (unit-counts.ts).
// A total reads both, on the list's snapshot.
// Never edit a migration that has shipped: add the next number.
export const name = 'unit counts by domain, type and quality bucket';

export const sql = `
-- Units per (domain, type, quality bucket), a bucket being floor(quality_score × 100).
CREATE TABLE unit_counts (
  domain text NOT NULL,
  type   text NOT NULL,
  bucket integer NOT NULL,
  n      bigint NOT NULL,
  PRIMARY KEY (domain, type, bucket)
);
INSERT INTO unit_counts (domain, type, bucket, n)
  SELECT domain, type, floor(quality_score * 100)::integer, count(*) FROM knowledge_units GROUP BY 1, 2, 3;

-- What writes changed since the last fold: appended, never updated, so writers take no lock here.
CREATE TABLE unit_count_changes (
  domain text NOT NULL,
  type   text NOT NULL,
  bucket integer NOT NULL,
  n      integer NOT NULL
);

-- Once per statement, over the rows it wrote (a bulk import of thousands appends a row per bucket).
CREATE FUNCTION reg_unit_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO unit_count_changes (domain, type, bucket, n)
      SELECT domain, type, floor(quality_score * 100)::integer, count(*) FROM new_units GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO unit_count_changes (domain, type, bucket, n)
      SELECT domain, type, floor(quality_score * 100)::integer, -count(*) FROM old_units GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO unit_count_changes (domain, type, bucket, n)
      SELECT domain, type, bucket, sum(n) FROM (
        SELECT o.domain, o.type, floor(o.quality_score * 100)::integer AS bucket, -1 AS n, nu.domain AS d2, nu.type AS t2,
               floor(nu.quality_score * 100)::integer AS b2
        FROM old_units o JOIN new_units nu ON nu.seq = o.seq
        UNION ALL
        SELECT nu.domain, nu.type, floor(nu.quality_score * 100)::integer, 1, o.domain, o.type, floor(o.quality_score * 100)::integer
        FROM old_units o JOIN new_units nu ON nu.seq = o.seq
      ) moved
      WHERE (domain, type, bucket) IS DISTINCT FROM (d2, t2, b2)
      GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER unit_counts_insert AFTER INSERT ON knowledge_units REFERENCING NEW TABLE AS new_units
  FOR EACH STATEMENT EXECUTE FUNCTION reg_unit_counts_changed();
CREATE TRIGGER unit_counts_delete AFTER DELETE ON knowledge_units REFERENCING OLD TABLE AS old_units
  FOR EACH STATEMENT EXECUTE FUNCTION reg_unit_counts_changed();
CREATE TRIGGER unit_counts_update AFTER UPDATE ON knowledge_units REFERENCING OLD TABLE AS old_units NEW TABLE AS new_units
  FOR EACH STATEMENT EXECUTE FUNCTION reg_unit_counts_changed();
`;
