// Advisories and what an audit asks, read once for every backend: one advisory, a page of them (never one
// about a skill that is private now), those of a set of skills, and the state of locked versions (yanked,
// held, their verdict) in one query for a whole lock file.
import type { OsvRecord } from '../../domain/advisories.js';
import { oneOf, raw, sql, type Db } from '../sql.js';
import type { AdvisoryStore, Page, VersionState } from '../store.js';

/** Not about a skill that is private now. */
const SHOWN = raw(`NOT EXISTS (SELECT 1 FROM skills s WHERE s.id = a.skill_id AND s.visibility = 'private')`);

export type AdvisoryReads = Omit<AdvisoryStore, 'publishAdvisory'>;

export function advisoryReads(db: Db): AdvisoryReads {
  const record = (row: { record: unknown }) => db.decode.json(row.record) as OsvRecord;
  return {
    async advisory(id) {
      const row = await db.get<{ record: unknown }>(
        sql`SELECT a.record FROM advisories a WHERE a.id = ${id} AND ${SHOWN}`,
      );
      return row ? record(row) : null;
    },
    listAdvisories: (query): Promise<Page<OsvRecord>> =>
      db.snapshot(async (db) => {
        const conditions = [SHOWN];
        if (query.skillId !== undefined) conditions.push(sql`a.skill_id = ${query.skillId}`);
        if (query.modifiedSince !== undefined) conditions.push(sql`a.modified >= ${query.modifiedSince}`);
        const where = sql`WHERE ${conditions.reduce((all, c) => sql`${all} AND ${c}`)}`;
        const total = await db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM advisories a ${where}`, {
          adHoc: true,
        });
        const found = await db.all<{ record: unknown }>(
          sql`SELECT a.record FROM advisories a ${where} ORDER BY a.modified DESC, a.seq DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`,
          { adHoc: true },
        );
        return { items: found.map(record), total: Number(total!.n) };
      }),
    async advisoriesOf(skillIds) {
      if (skillIds.length === 0) return [];
      const found = await db.all<{ record: unknown }>(
        sql`SELECT a.record FROM advisories a WHERE ${oneOf(raw('a.skill_id'), skillIds, 'text')} AND a.withdrawn IS NULL
          ORDER BY a.seq`,
      );
      return found.map(record);
    },
    async versionStates(pairs) {
      if (pairs.length === 0) return [];
      const ids = [...new Set(pairs.map((p) => p.id))];
      const found = await db.all<{
        id: string;
        agent_id: string;
        visibility: string;
        skill_held: unknown;
        version: string;
        yanked: unknown;
        held_at: string | null;
        verdict: string | null;
      }>(
        sql`SELECT s.id, s.agent_id, s.visibility, s.held_at IS NOT NULL AS skill_held, v.version, v.yanked, v.held_at, v.verdict
          FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq WHERE ${oneOf(raw('s.id'), ids, 'text')}`,
      );
      const byKey = new Map(found.map((r) => [`${r.id}@${r.version}`, r]));
      return pairs.map(({ id, version }): VersionState | null => {
        const row = byKey.get(`${id}@${version}`);
        if (!row) return null;
        return {
          publisher: row.agent_id,
          visibility: row.visibility as VersionState['visibility'],
          yanked: db.decode.bool(row.yanked),
          held: db.decode.bool(row.skill_held) || row.held_at !== null,
          verdict: row.verdict,
        };
      });
    },
    async skillVersionNumbers(skillId) {
      const found = await db.all<{ version: string }>(
        sql`SELECT v.version FROM skill_versions v JOIN skills s ON s.seq = v.skill_seq WHERE s.id = ${skillId}
          ORDER BY v.sort_key DESC, v.seq DESC`,
      );
      return found.map((r) => r.version);
    },
  };
}
