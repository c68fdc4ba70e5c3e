// Migration 15: what the trust features keep. A hold (a moderator's or the scanner's) on a whole skill,
// one version or a unit: its reason, who, when; `version_held` says the version a skill's row shows is
// held (every version is), so lists and searches leave the skill out. Each version and unit keeps its
// security verdict and findings with the rule set that gave them, and every verdict change is recorded.
// Reports and appeals (one queue), the decisions taken on them (the public log), and advisories.
// The same number as PostgreSQL's.
// Never edit a migration that has shipped: add the next number.
export const name = 'holds, verdicts, reports, decisions and advisories';

const held = (table: string) => `
ALTER TABLE ${table} ADD COLUMN held_reason TEXT;
ALTER TABLE ${table} ADD COLUMN held_by TEXT;
ALTER TABLE ${table} ADD COLUMN held_at TEXT;`;
const security = (table: string) => `
ALTER TABLE ${table} ADD COLUMN verdict TEXT;
ALTER TABLE ${table} ADD COLUMN findings TEXT;
ALTER TABLE ${table} ADD COLUMN scanner TEXT;
ALTER TABLE ${table} ADD COLUMN scanned_at TEXT;`;

export const sql = `
${held('skills')}
ALTER TABLE skills ADD COLUMN version_held INTEGER NOT NULL DEFAULT 0;
-- The default version's verdict, copied with its other fields, for lists.
ALTER TABLE skills ADD COLUMN verdict TEXT;
ALTER TABLE skills ADD COLUMN findings_count INTEGER;
ALTER TABLE skill_versions ADD COLUMN findings_count INTEGER;
${held('skill_versions')}
${held('knowledge_units')}
${security('skill_versions')}
${security('knowledge_units')}
CREATE INDEX skill_versions_scanner ON skill_versions(scanner, seq);
CREATE INDEX knowledge_units_scanner ON knowledge_units(scanner, seq);
-- Held units are few: a unit list's total takes off those its viewer may not see, found through this.
CREATE INDEX knowledge_units_held ON knowledge_units(agent_id) WHERE held_at IS NOT NULL;

-- A held unit changes what lists and searches show: logged for the search index like its other changes.
DROP TRIGGER search_unit_update;
CREATE TRIGGER search_unit_update AFTER UPDATE OF quality_score, title, description, examples, domain, tags, type, held_at
  ON knowledge_units BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('unit', new.seq);
END;

CREATE TABLE verdict_changes (
  seq         INTEGER PRIMARY KEY,
  target_id   TEXT NOT NULL,
  version     TEXT,
  verdict     TEXT NOT NULL,
  previous    TEXT,
  scanner     TEXT NOT NULL,
  at          TEXT NOT NULL
);
CREATE INDEX verdict_changes_target ON verdict_changes(target_id, seq);

-- Reports and appeals: the admins' queue (an appeal is reason 'appeal', by the owner).
CREATE TABLE reports (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  reporter    TEXT NOT NULL,
  target_kind TEXT NOT NULL,
  target_id   TEXT NOT NULL,
  version     TEXT,
  reason      TEXT NOT NULL,
  details     TEXT NOT NULL,
  standing    INTEGER NOT NULL,
  status      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  closed_at   TEXT,
  decision_id TEXT
);
CREATE UNIQUE INDEX reports_one_open ON reports(reporter, target_id, coalesce(version, '')) WHERE status = 'open';
CREATE INDEX reports_queue ON reports(status, standing DESC, seq);
CREATE INDEX reports_by_reporter ON reports(reporter, created_at);
CREATE INDEX reports_target ON reports(target_id, status);

CREATE TABLE decisions (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  target_kind TEXT NOT NULL,
  target_id   TEXT NOT NULL,
  version     TEXT,
  action      TEXT NOT NULL,
  reason      TEXT NOT NULL,
  note        TEXT NOT NULL,
  by          TEXT NOT NULL,
  moderator   TEXT,
  public      INTEGER NOT NULL,
  at          TEXT NOT NULL
);
CREATE INDEX decisions_log ON decisions(public, seq DESC);
CREATE INDEX decisions_target ON decisions(target_id, seq);

CREATE TABLE advisories (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  skill_id    TEXT NOT NULL,
  publisher   TEXT NOT NULL,
  skill_name  TEXT NOT NULL,
  versions    TEXT NOT NULL,
  severity    TEXT NOT NULL,
  summary     TEXT NOT NULL,
  details     TEXT NOT NULL,
  record      TEXT NOT NULL,
  published   TEXT NOT NULL,
  modified    TEXT NOT NULL,
  withdrawn   TEXT
);
CREATE INDEX advisories_skill ON advisories(skill_id, seq);
CREATE INDEX advisories_modified ON advisories(modified, seq);
`;
