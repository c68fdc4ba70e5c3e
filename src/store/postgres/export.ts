// Everything tied to an agent, read in keyset batches: each batch is one short query on a pooled
// connection, so an export of any size runs in flat memory and holds no connection or cursor between
// batches (the client may read the stream slowly).
import type { QueryResultRow } from 'pg';
import type { KeyMetadata, KnowledgeUnit, ReputationEvent, Verdict } from '../../domain/model.js';
import * as rows from '../rows.js';
import { run, type Queryable } from './connection.js';

const EXPORT_BATCH = 500;
/** Units may be up to about 1 MB each: fewer per batch keeps an export's memory small. */
const LARGE_ROW_BATCH = 32;

async function* batches<R extends QueryResultRow, T>(db: Queryable, sql: string, agentId: string, map: (row: R) => T, size = EXPORT_BATCH) {
  let after = '0';
  for (;;) {
    const batch = (await run<R & { seq: string }>(db, sql, [agentId, after, size])).rows;
    for (const row of batch) yield map(row);
    if (batch.length < size) return;
    after = batch[batch.length - 1]!.seq;
  }
}

export function exportKeys(db: Queryable, agentId: string): AsyncIterable<KeyMetadata> {
  const sql = `SELECT id AS seq, ${rows.KEY_COLUMNS} FROM api_keys WHERE agent_id = $1 AND id > $2 ORDER BY id LIMIT $3`;
  return batches(db, sql, agentId, rows.toKeyMetadata);
}

export function exportUnits(db: Queryable, agentId: string): AsyncIterable<KnowledgeUnit> {
  const sql = `SELECT ku.seq, ${rows.UNIT_COLUMNS} FROM knowledge_units ku
    WHERE ku.agent_id = $1 AND ku.seq > $2 ORDER BY ku.seq LIMIT $3`;
  return batches(db, sql, agentId, (row: rows.UnitRow) => rows.toUnit(row, rows.postgresDecode), LARGE_ROW_BATCH);
}


export function exportVerdicts(db: Queryable, agentId: string): AsyncIterable<Verdict> {
  const sql = `SELECT seq, ${rows.VERDICT_COLUMNS} FROM verdicts WHERE agent_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`;
  return batches(db, sql, agentId, (row: rows.VerdictRow) => rows.toVerdict(row, rows.postgresDecode));
}

export function exportHistory(db: Queryable, agentId: string): AsyncIterable<ReputationEvent> {
  const sql = `SELECT ${rows.EVENT_COLUMNS} FROM reputation_events WHERE agent_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`;
  return batches(db, sql, agentId, rows.toEvent);
}
