// Moderation's writes on SQLite (PostgreSQL's are postgres/moderation.ts, with the same names): a report
// filed within its reporter's daily quota, and a decision applied with what it decides (a hold or a release
// of a skill, a version or a unit, the reports it closes) in one transaction of the group commit.
import type { Prepare } from './connection.js';
import type { NewAdvisory, NewDecision, NewReport } from '../store.js';
import { refreshDefault } from './skills.js';

const bool = (value: boolean) => (value ? 1 : 0);

export function fileReport(
  prepare: Prepare,
  report: NewReport,
  quota: { perDay: number | null; since: string },
): 'filed' | 'duplicate' | 'quota' {
  if (quota.perDay !== null) {
    const filed = prepare('SELECT count(*) FROM reports WHERE reporter = ? AND created_at >= ?')
      .pluck()
      .get(report.reporter, quota.since) as number;
    if (filed >= quota.perDay) return 'quota';
  }
  const inserted = prepare(
    `INSERT INTO reports (id, reporter, target_kind, target_id, version, reason, details, standing, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?) ON CONFLICT DO NOTHING`,
  ).run(
    report.id,
    report.reporter,
    report.target.kind,
    report.target.id,
    report.version,
    report.reason,
    report.details,
    Math.round(report.standing * 1000),
    report.createdAt,
  );
  return inserted.changes === 1 ? 'filed' : 'duplicate';
}

/** What a decision holds or releases: the row, and whether it is held now. */
function heldRow(
  prepare: Prepare,
  d: NewDecision,
): { table: string; seq: number; held: boolean; skillSeq?: number } | null {
  if (d.target.kind === 'unit') {
    const unit = prepare('SELECT seq, held_at FROM knowledge_units WHERE id = ?').get(d.target.id) as
      { seq: number; held_at: string | null } | undefined;
    return unit ? { table: 'knowledge_units', seq: unit.seq, held: unit.held_at !== null } : null;
  }
  const skill = prepare('SELECT seq, held_at FROM skills WHERE id = ?').get(d.target.id) as
    { seq: number; held_at: string | null } | undefined;
  if (!skill) return null;
  if (d.version === null) return { table: 'skills', seq: skill.seq, held: skill.held_at !== null };
  const version = prepare('SELECT seq, held_at FROM skill_versions WHERE skill_seq = ? AND version = ?').get(
    skill.seq,
    d.version,
  ) as { seq: number; held_at: string | null } | undefined;
  return version
    ? { table: 'skill_versions', seq: version.seq, held: version.held_at !== null, skillSeq: skill.seq }
    : null;
}

export function decide(
  prepare: Prepare,
  d: NewDecision,
  expectHeld: boolean | null,
): 'decided' | 'stale' | 'not_found' {
  const row = heldRow(prepare, d);
  if (!row) return 'not_found';
  if (expectHeld !== null && row.held !== expectHeld) return 'stale';
  if (d.action !== 'dismiss') {
    const hold = d.action === 'hold';
    prepare(`UPDATE ${row.table} SET held_reason = ?, held_by = ?, held_at = ? WHERE seq = ?`).run(
      hold ? d.reason : null,
      hold ? d.by : null,
      hold ? d.at : null,
      row.seq,
    );
    if (row.skillSeq !== undefined) refreshDefault(prepare, row.skillSeq, d.at);
    // A held skill or unit leaves the public history as a private skill does (its id included).
    if (row.table === 'skills')
      prepare(
        `UPDATE reputation_events SET private = (SELECT ? OR visibility = 'private' FROM skills WHERE seq = ?) WHERE target_id = ?`,
      ).run(bool(hold), row.seq, d.target.id);
    else if (row.table === 'knowledge_units')
      prepare('UPDATE reputation_events SET private = ? WHERE target_id = ?').run(bool(hold), d.target.id);
  }
  const close = prepare(
    `UPDATE reports SET status = 'closed', closed_at = ?, decision_id = ? WHERE id = ? AND target_id = ? AND status = 'open'`,
  );
  for (const id of d.reportIds) close.run(d.at, d.id, id, d.target.id);
  prepare(
    `INSERT INTO decisions (id, target_kind, target_id, version, action, reason, note, by, moderator, public, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    d.id,
    d.target.kind,
    d.target.id,
    d.version,
    d.action,
    d.reason,
    d.note,
    d.by,
    d.moderator,
    bool(d.public),
    d.at,
  );
  return 'decided';
}

export function publishAdvisory(prepare: Prepare, a: NewAdvisory): void {
  prepare(
    `INSERT INTO advisories (id, skill_id, publisher, skill_name, versions, severity, summary, details, record, published, modified)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.record.id,
    a.skillId,
    a.publisher,
    a.skillName,
    a.range,
    a.severity,
    a.record.summary,
    a.record.details,
    JSON.stringify(a.record),
    a.record.published,
    a.record.modified,
  );
}
