// Moderation, read once for every backend: what a report or a decision is about (a skill, one of its
// versions, or a unit, with its owner and hold), the admins' queue (reports and appeals, the reporters with
// standing first), and the public log of decisions (newest first, nothing about a private item).
import type { Hold, ModerationTarget } from '../../domain/moderation.js';
import { holdOf } from '../rows.js';
import { raw, sql, type Db } from '../sql.js';
import type { DecisionRecord, ModerationStore, Page, ReportRecord } from '../store.js';

interface HeldColumns {
  held_reason: string | null;
  held_by: string | null;
  held_at: string | null;
}

interface ReportRow {
  id: string;
  reporter: string;
  target_kind: string;
  target_id: string;
  version: string | null;
  reason: string;
  details: string;
  status: string;
  standing: number | string;
  created_at: string;
  closed_at: string | null;
  decision_id: string | null;
}

interface DecisionRow {
  id: string;
  target_kind: string;
  target_id: string;
  version: string | null;
  action: string;
  reason: string;
  note: string;
  by: string;
  moderator: string | null;
  at: string;
}

const REPORT_COLUMNS = raw(
  'r.id, r.reporter, r.target_kind, r.target_id, r.version, r.reason, r.details, r.status, r.standing, r.created_at, r.closed_at, r.decision_id',
);
const DECISION_COLUMNS = raw(
  'd.id, d.target_kind, d.target_id, d.version, d.action, d.reason, d.note, d.by, d.moderator, d.at',
);

const toReport = (r: ReportRow): ReportRecord => ({
  id: r.id,
  reporter: r.reporter,
  target: { kind: r.target_kind as ReportRecord['target']['kind'], id: r.target_id },
  version: r.version,
  reason: r.reason,
  details: r.details,
  status: r.status as ReportRecord['status'],
  standing: Number(r.standing) / 1000,
  createdAt: r.created_at,
  closedAt: r.closed_at,
  decisionId: r.decision_id,
});

const toDecision = (d: DecisionRow): DecisionRecord => ({
  id: d.id,
  target: { kind: d.target_kind as DecisionRecord['target']['kind'], id: d.target_id },
  version: d.version,
  action: d.action as DecisionRecord['action'],
  reason: d.reason,
  note: d.note,
  by: d.by as DecisionRecord['by'],
  moderator: d.moderator,
  at: d.at,
});

export type ModerationReads = Pick<ModerationStore, 'moderationTarget' | 'listReports' | 'moderationLog'>;

export function moderationReads(db: Db): ModerationReads {
  const hold = (row: HeldColumns | undefined): Hold | null => (row ? (holdOf(row) ?? null) : null);
  return {
    async moderationTarget(id, version): Promise<ModerationTarget | null> {
      const skill = await db.get<
        HeldColumns & { seq: number | string; agent_id: string; visibility: string; verdict: string | null }
      >(sql`SELECT seq, agent_id, visibility, verdict, held_reason, held_by, held_at FROM skills WHERE id = ${id}`);
      if (skill) {
        const base = {
          kind: 'skill' as const,
          id,
          owner: skill.agent_id,
          public: skill.visibility === 'public',
          skillHeld: hold(skill),
        };
        if (version === null) return { ...base, version: null, held: hold(skill), verdict: skill.verdict };
        const row = await db.get<HeldColumns & { verdict: string | null }>(
          sql`SELECT held_reason, held_by, held_at, verdict FROM skill_versions WHERE skill_seq = ${skill.seq} AND version = ${version}`,
        );
        return row ? { ...base, version, held: hold(row), verdict: row.verdict } : null;
      }
      if (version !== null) return null;
      const unit = await db.get<HeldColumns & { agent_id: string; verdict: string | null }>(
        sql`SELECT agent_id, verdict, held_reason, held_by, held_at FROM knowledge_units WHERE id = ${id}`,
      );
      return unit
        ? {
            kind: 'unit',
            id,
            version: null,
            owner: unit.agent_id,
            public: true,
            skillHeld: null,
            held: hold(unit),
            verdict: unit.verdict,
          }
        : null;
    },

    /** Open items with the reporters of most standing first, then the oldest; closed ones newest first. */
    listReports: (status, page): Promise<Page<ReportRecord>> =>
      db.snapshot(async (db) => {
        const total = await db.get<{ n: number | string }>(
          sql`SELECT count(*) AS n FROM reports r WHERE r.status = ${status}`,
        );
        const order = status === 'open' ? raw('r.standing DESC, r.seq') : raw('r.seq DESC');
        const found = await db.all<ReportRow>(
          sql`SELECT ${REPORT_COLUMNS} FROM reports r WHERE r.status = ${status} ORDER BY ${order}
            LIMIT ${page.limit} OFFSET ${page.offset}`,
        );
        return { items: found.map(toReport), total: Number(total!.n) };
      }),

    moderationLog: (page): Promise<Page<DecisionRecord>> =>
      db.snapshot(async (db) => {
        // Public when decided, and not about a skill that is private now.
        const shown = sql`d.public = ${true} AND NOT EXISTS (SELECT 1 FROM skills s WHERE s.id = d.target_id AND s.visibility = 'private')`;
        const total = await db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM decisions d WHERE ${shown}`);
        const found = await db.all<DecisionRow>(
          sql`SELECT ${DECISION_COLUMNS} FROM decisions d WHERE ${shown} ORDER BY d.seq DESC
            LIMIT ${page.limit} OFFSET ${page.offset}`,
        );
        return { items: found.map(toDecision), total: Number(total!.n) };
      }),
  };
}
