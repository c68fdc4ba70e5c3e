// Everything tied to an agent, read once for every backend in keyset batches: each batch is one short
// query, so an export of any size runs in flat memory and holds no connection or cursor between batches
// (the client may read the stream slowly).
import type { KeyMetadata, KnowledgeUnit, ReputationEvent, Verdict } from '../../domain/model.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import { byDialect, raw, sql, type Db, type Sql } from '../sql.js';
import type { ExportStore, SkillExport } from '../store.js';

const BATCH = 500;
/** Units may be up to about 1 MB each: fewer per batch keeps an export's memory small. */
const UNIT_BATCH = 32;
/** A skill is exported with every version and its files. */
const SKILL_BATCH = 8;
/** A verdict's order of arrival: SQLite's rowid, PostgreSQL's identity column. */
const VERDICT_SEQ = byDialect({ sqlite: raw('rowid'), postgres: raw('seq') });

/** Rows after `after` in `seq` order, `size` at a time; `page(after, size)` reads one batch. */
export async function* keyset<R, T>(
  db: Db,
  page: (after: number, size: number) => Sql,
  map: (row: R) => T | Promise<T>,
  size = BATCH,
): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const batch = await db.all<R & { seq: number | string }>(page(after, size));
    for (const row of batch) yield await map(row);
    if (batch.length < size) return;
    after = Number(batch[batch.length - 1]!.seq);
  }
}

export function exportReads(
  db: Db,
  versionsOf: (skillSeq: number | string) => Promise<SkillExport['versions']>,
): ExportStore {
  return {
    exportKeys: (agentId): AsyncIterable<KeyMetadata> =>
      keyset(
        db,
        (after, size) => sql`SELECT id AS seq, ${raw(rows.KEY_COLUMNS)} FROM api_keys
        WHERE agent_id = ${agentId} AND id > ${after} ORDER BY id LIMIT ${size}`,
        rows.toKeyMetadata,
      ),
    exportUnits: (agentId): AsyncIterable<KnowledgeUnit> =>
      keyset(
        db,
        (after, size) => sql`SELECT ku.seq, ${raw(rows.UNIT_COLUMNS)} FROM knowledge_units ku
          WHERE ku.agent_id = ${agentId} AND ku.seq > ${after} ORDER BY ku.seq LIMIT ${size}`,
        (row: rows.UnitRow) => rows.toUnit(row, db.decode),
        UNIT_BATCH,
      ),
    exportVerdicts: (agentId): AsyncIterable<Verdict> =>
      keyset(
        db,
        (after, size) => sql`SELECT ${VERDICT_SEQ} AS seq, ${raw(rows.VERDICT_COLUMNS)} FROM verdicts
        WHERE agent_id = ${agentId} AND ${VERDICT_SEQ} > ${after} ORDER BY ${VERDICT_SEQ} LIMIT ${size}`,
        (row: rows.VerdictRow) => rows.toVerdict(row, db.decode),
      ),
    exportHistory: (agentId): AsyncIterable<ReputationEvent> =>
      keyset(
        db,
        (after, size) => sql`SELECT ${raw(rows.EVENT_COLUMNS)} FROM reputation_events
        WHERE agent_id = ${agentId} AND seq > ${after} ORDER BY seq LIMIT ${size}`,
        rows.toEvent,
      ),
    exportSkills: (agentId): AsyncIterable<SkillExport> =>
      keyset(
        db,
        (after, size) => sql`SELECT seq, id, name, visibility, created_at, updated_at,
          CASE WHEN latest_version_seq IS NULL THEN NULL ELSE version END AS latest
          FROM skills WHERE agent_id = ${agentId} AND seq > ${after} ORDER BY seq LIMIT ${size}`,
        async (row: skillRows.SkillExportRow & { seq: number | string }) =>
          skillRows.toSkillExport(row, await versionsOf(row.seq)),
        SKILL_BATCH,
      ),
  };
}
