// Moderation's writes on PostgreSQL (SQLite's are sqlite/moderation.ts, with the same names): a report
// filed within its reporter's daily quota (the reporter's row locked, so two reports at once count each
// other), and a decision applied with what it decides (a hold or a release of a skill, a version or a unit,
// the reports it closes) in one transaction of the group commit.
import type { PoolClient } from 'pg';
import { run } from './connection.js';
import type { NewAdvisory, NewDecision, NewReport } from '../store.js';
import { refreshDefault } from './skills.js';
import { lockAgent } from './writes.js';

export async function fileReport(
  client: PoolClient,
  report: NewReport,
  quota: { perDay: number | null; since: string },
): Promise<'filed' | 'duplicate' | 'quota'> {
  await lockAgent(client, report.reporter);
  if (quota.perDay !== null) {
    const { rows } = await run<{ n: string }>(
      client,
      'SELECT count(*) AS n FROM reports WHERE reporter = $1 AND created_at >= $2',
      [report.reporter, quota.since],
    );
    if (Number(rows[0]!.n) >= quota.perDay) return 'quota';
  }
  const inserted = await run(
    client,
    `INSERT INTO reports (id, reporter, target_kind, target_id, version, reason, details, standing, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9) ON CONFLICT DO NOTHING`,
    [
      report.id,
      report.reporter,
      report.target.kind,
      report.target.id,
      report.version,
      report.reason,
      report.details,
      Math.round(report.standing * 1000),
      report.createdAt,
    ],
  );
  return inserted.rowCount === 1 ? 'filed' : 'duplicate';
}

/** What a decision holds or releases: the row (locked), and whether it is held now. */
async function heldRow(
  client: PoolClient,
  d: NewDecision,
): Promise<{ table: string; seq: string; held: boolean; skillSeq?: string } | null> {
  const one = async (text: string, values: unknown[]) =>
    (await run<{ seq: string; held_at: string | null }>(client, text, values)).rows[0];
  if (d.target.kind === 'unit') {
    const unit = await one('SELECT seq, held_at FROM knowledge_units WHERE id = $1 FOR UPDATE', [d.target.id]);
    return unit ? { table: 'knowledge_units', seq: unit.seq, held: unit.held_at !== null } : null;
  }
  const skill = await one('SELECT seq, held_at FROM skills WHERE id = $1 FOR UPDATE', [d.target.id]);
  if (!skill) return null;
  if (d.version === null) return { table: 'skills', seq: skill.seq, held: skill.held_at !== null };
  const version = await one('SELECT seq, held_at FROM skill_versions WHERE skill_seq = $1 AND version = $2', [
    skill.seq,
    d.version,
  ]);
  return version
    ? { table: 'skill_versions', seq: version.seq, held: version.held_at !== null, skillSeq: skill.seq }
    : null;
}

export async function decide(
  client: PoolClient,
  d: NewDecision,
  expectHeld: boolean | null,
): Promise<'decided' | 'stale' | 'not_found'> {
  // The owner's row first, as every write that touches an agent's objects takes it (no deadlock).
  const table = d.target.kind === 'unit' ? 'knowledge_units' : 'skills';
  const owner = (await run<{ agent_id: string }>(client, `SELECT agent_id FROM ${table} WHERE id = $1`, [d.target.id]))
    .rows[0];
  if (!owner) return 'not_found';
  await lockAgent(client, owner.agent_id);
  const row = await heldRow(client, d);
  if (!row) return 'not_found';
  if (expectHeld !== null && row.held !== expectHeld) return 'stale';
  if (d.action !== 'dismiss') {
    const hold = d.action === 'hold';
    await run(client, `UPDATE ${row.table} SET held_reason = $2, held_by = $3, held_at = $4 WHERE seq = $1`, [
      row.seq,
      hold ? d.reason : null,
      hold ? d.by : null,
      hold ? d.at : null,
    ]);
    if (row.skillSeq !== undefined) await refreshDefault(client, row.skillSeq, d.at);
    // A held skill or unit leaves the public history as a private skill does (its id included).
    if (row.table === 'skills')
      await run(
        client,
        `UPDATE reputation_events SET private = (SELECT $2::boolean OR visibility = 'private' FROM skills WHERE seq = $1)
         WHERE target_id = $3`,
        [row.seq, hold, d.target.id],
      );
    else if (row.table === 'knowledge_units')
      await run(client, 'UPDATE reputation_events SET private = $2 WHERE target_id = $1', [d.target.id, hold]);
  }
  if (d.reportIds.length > 0)
    await run(
      client,
      `UPDATE reports SET status = 'closed', closed_at = $1, decision_id = $2
       WHERE id = ANY($3::text[]) AND target_id = $4 AND status = 'open'`,
      [d.at, d.id, d.reportIds, d.target.id],
    );
  await run(
    client,
    `INSERT INTO decisions (id, target_kind, target_id, version, action, reason, note, by, moderator, public, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [d.id, d.target.kind, d.target.id, d.version, d.action, d.reason, d.note, d.by, d.moderator, d.public, d.at],
  );
  return 'decided';
}

export async function publishAdvisory(client: PoolClient, a: NewAdvisory): Promise<void> {
  await run(
    client,
    `INSERT INTO advisories (id, skill_id, publisher, skill_name, versions, severity, summary, details, record, published, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)`,
    [
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
    ],
  );
}
