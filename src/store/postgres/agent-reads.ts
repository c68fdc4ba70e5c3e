// Agents and their keys as read on PostgreSQL, mirrored by ../sqlite/agent-reads.ts: a key by hash or by
// active prefix, which credential kind claimed an agent id, and the reputation profile with its newest
// history items. The writes (agents, keys, rewards) are in writes.ts.
import type { ApiKeyRecord, ReputationProfile } from '../../domain/model.js';
import * as rows from '../rows.js';
import type { AgentOrigin } from '../store.js';
import { run, type Queryable } from './connection.js';

export async function findKeyByHash(db: Queryable, keyHash: string): Promise<ApiKeyRecord | null> {
  const [row] = (await run<rows.KeyRow>(db, `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash])).rows;
  return row ? rows.toKey(row) : null;
}

export async function findActiveKeyByPrefix(db: Queryable, keyPrefix: string): Promise<ApiKeyRecord | null> {
  const sql = `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE key_prefix = $1 AND revoked_at IS NULL`;
  const [row] = (await run<rows.KeyRow>(db, sql, [keyPrefix])).rows;
  return row ? rows.toKey(row) : null;
}

export async function agentOrigin(db: Queryable, agentId: string): Promise<AgentOrigin | null> {
  const [row] = (await run<{ origin: AgentOrigin }>(db, 'SELECT origin FROM agents WHERE agent_id = $1', [agentId])).rows;
  return row?.origin ?? null;
}

export async function reputation(db: Queryable, agentId: string, historyLimit: number, withPrivate: boolean): Promise<ReputationProfile | null> {
  const [agent] = (await run<rows.AgentRow>(db, `SELECT ${rows.AGENT_COLUMNS} FROM agents WHERE agent_id = $1`, [agentId])).rows;
  if (!agent) return null;
  if (historyLimit <= 0) return rows.toProfile(agent, []);
  const history = await run<rows.EventRow>(
    db,
    `SELECT ${rows.EVENT_COLUMNS} FROM reputation_events WHERE agent_id = $1${withPrivate ? '' : ' AND NOT private'} ORDER BY seq DESC LIMIT $2`,
    [agentId, historyLimit],
  );
  return rows.toProfile(agent, history.rows);
}
