// Everything tied to an agent, read in keyset batches: no cursor stays open between batches, so an
// export of any size runs in flat memory while the client reads the stream at its own pace.
import type { KeyMetadata, KnowledgeUnit, ReputationEvent, Verdict } from '../../domain/model.js';
import * as rows from '../rows.js';
import type { Prepare } from './connection.js';

const EXPORT_BATCH = 500;
/** Units may be up to about 1 MB each: fewer per batch keeps an export's memory small. */
const LARGE_ROW_BATCH = 32;

async function* batches<R, T>(prepare: Prepare, sql: string, agentId: string, map: (row: R) => T, size = EXPORT_BATCH): AsyncGenerator<T> {
  const statement = prepare(sql);
  let after = 0;
  for (;;) {
    const batch = statement.all(agentId, after, size) as (R & { seq: number })[];
    for (const row of batch) yield map(row);
    if (batch.length < size) return;
    after = batch[batch.length - 1]!.seq;
  }
}

export function exportKeys(prepare: Prepare, agentId: string): AsyncIterable<KeyMetadata> {
  const sql = `SELECT id AS seq, ${rows.KEY_COLUMNS} FROM api_keys WHERE agent_id = ? AND id > ? ORDER BY id LIMIT ?`;
  return batches(prepare, sql, agentId, rows.toKeyMetadata);
}

export function exportUnits(prepare: Prepare, agentId: string): AsyncIterable<KnowledgeUnit> {
  const sql = `SELECT ku.seq, ${rows.UNIT_COLUMNS} FROM knowledge_units ku WHERE ku.agent_id = ? AND ku.seq > ? ORDER BY ku.seq LIMIT ?`;
  return batches(prepare, sql, agentId, (row: rows.UnitRow) => rows.toUnit(row, rows.sqliteDecode), LARGE_ROW_BATCH);
}


export function exportVerdicts(prepare: Prepare, agentId: string): AsyncIterable<Verdict> {
  const sql = `SELECT rowid AS seq, ${rows.VERDICT_COLUMNS} FROM verdicts WHERE agent_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`;
  return batches(prepare, sql, agentId, (row: rows.VerdictRow) => rows.toVerdict(row, rows.sqliteDecode));
}

export function exportHistory(prepare: Prepare, agentId: string): AsyncIterable<ReputationEvent> {
  const sql = `SELECT ${rows.EVENT_COLUMNS} FROM reputation_events WHERE agent_id = ? AND seq > ? ORDER BY seq LIMIT ?`;
  return batches(prepare, sql, agentId, rows.toEvent);
}
