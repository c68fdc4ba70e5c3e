// Migration 15: what the trust features keep, as SQLite's migration 15 (the same number). A hold (a
// moderator's or the scanner's) on a whole skill, one version or a unit: its reason, who, when;
// `version_held` says the version a skill's row shows is held (every version is), so lists and searches
// leave the skill out. Each version and unit keeps its security verdict and findings with the rule set
// that gave them, and every verdict change is recorded. Reports and appeals (one queue), the decisions
// taken on them (the public log), and advisories.
// Never edit a migration that has shipped: add the next number.
export const name = 'holds, verdicts, reports, decisions and advisories';

const held = (table: string) => `
ALTER TABLE ${table} ADD COLUMN held_reason text, ADD COLUMN held_by text, ADD COLUMN held_at text COLLATE "C";`;
const security = (table: string) => `
ALTER TABLE ${table} ADD COLUMN verdict text, ADD COLUMN findings jsonb, ADD COLUMN scanner text COLLATE "C",
  ADD COLUMN scanned_at text COLLATE "C";`;

export const sql = `
${held('skills')}
ALTER TABLE skills ADD COLUMN version_held boolean NOT NULL DEFAULT false;
-- The default version's verdict, copied with its other fields, for lists.
ALTER TABLE skills ADD COLUMN verdict text, ADD COLUMN findings_count integer;
ALTER TABLE skill_versions ADD COLUMN findings_count integer;
${held('skill_versions')}
${held('knowledge_units')}
${security('skill_versions')}
${security('knowledge_units')}
CREATE INDEX skill_versions_scanner ON skill_versions(scanner, seq);
CREATE INDEX knowledge_units_scanner ON knowledge_units(scanner, seq);
-- Held units are few: a unit list's total takes off those its viewer may not see, found through this.
CREATE INDEX knowledge_units_held ON knowledge_units(agent_id) WHERE held_at IS NOT NULL;

-- A held unit changes what lists and searches show: logged for the search index like its other changes.
DROP TRIGGER search_unit_update ON knowledge_units;
CREATE TRIGGER search_unit_update AFTER UPDATE OF quality_score, title, description, examples, domain, tags, type, held_at
  ON knowledge_units FOR EACH ROW EXECUTE FUNCTION reg_search_unit_changed();

CREATE TABLE verdict_changes (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  target_id   text COLLATE "C" NOT NULL,
  version     text,
  verdict     text NOT NULL,
  previous    text,
  scanner     text NOT NULL,
  at          text COLLATE "C" NOT NULL
);
CREATE INDEX verdict_changes_target ON verdict_changes(target_id, seq);

CREATE TABLE reports (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          text COLLATE "C" NOT NULL UNIQUE,
  reporter    text COLLATE "C" NOT NULL,
  target_kind text NOT NULL,
  target_id   text COLLATE "C" NOT NULL,
  version     text,
  reason      text NOT NULL,
  details     text NOT NULL,
  standing    integer NOT NULL,
  status      text NOT NULL,
  created_at  text COLLATE "C" NOT NULL,
  closed_at   text COLLATE "C",
  decision_id text COLLATE "C"
);
CREATE UNIQUE INDEX reports_one_open ON reports(reporter, target_id, coalesce(version, '')) WHERE status = 'open';
CREATE INDEX reports_queue ON reports(status, standing DESC, seq);
CREATE INDEX reports_by_reporter ON reports(reporter, created_at);
CREATE INDEX reports_target ON reports(target_id, status);

CREATE TABLE decisions (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          text COLLATE "C" NOT NULL UNIQUE,
  target_kind text NOT NULL,
  target_id   text COLLATE "C" NOT NULL,
  version     text,
  action      text NOT NULL,
  reason      text NOT NULL,
  note        text NOT NULL,
  by          text NOT NULL,
  moderator   text COLLATE "C",
  public      boolean NOT NULL,
  at          text COLLATE "C" NOT NULL
);
CREATE INDEX decisions_log ON decisions(public, seq DESC);
CREATE INDEX decisions_target ON decisions(target_id, seq);

CREATE TABLE advisories (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          text COLLATE "C" NOT NULL UNIQUE,
  skill_id    text COLLATE "C" NOT NULL,
  publisher   text COLLATE "C" NOT NULL,
  skill_name  text NOT NULL,
  versions    text NOT NULL,
  severity    text NOT NULL,
  summary     text NOT NULL,
  details     text NOT NULL,
  record      jsonb NOT NULL,
  published   text COLLATE "C" NOT NULL,
  modified    text COLLATE "C" NOT NULL,
  withdrawn   text COLLATE "C"
);
CREATE INDEX advisories_skill ON advisories(skill_id, seq);
CREATE INDEX advisories_modified ON advisories(modified, seq);
`;
