// Agents and their keys as read on SQLite, mirrored by ../postgres/agent-reads.ts: a key by hash or by
// active prefix, which credential kind claimed an agent id, and the reputation profile with its newest
// history items. The writes (agents, keys, rewards) are in writes.ts.
import type { ApiKeyRecord, ReputationProfile } from '../../domain/model.js';
import * as rows from '../rows.js';
import type { AgentOrigin } from '../store.js';
import type { Prepare } from './connection.js';

export function findKeyByHash(prepare: Prepare, keyHash: string): ApiKeyRecord | null {
  const row = prepare(`SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`).get(keyHash) as rows.KeyRow | undefined;
  return row ? rows.toKey(row) : null;
}

export function findActiveKeyByPrefix(prepare: Prepare, keyPrefix: string): ApiKeyRecord | null {
  const sql = `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE key_prefix = ? AND revoked_at IS NULL`;
  const row = prepare(sql).get(keyPrefix) as rows.KeyRow | undefined;
  return row ? rows.toKey(row) : null;
}

export function agentOrigin(prepare: Prepare, agentId: string): AgentOrigin | null {
  const origin = prepare('SELECT origin FROM agents WHERE agent_id = ?').pluck().get(agentId) as AgentOrigin | undefined;
  return origin ?? null;
}

export function reputation(prepare: Prepare, agentId: string, historyLimit: number, withPrivate: boolean): ReputationProfile | null {
  const agent = prepare(`SELECT ${rows.AGENT_COLUMNS} FROM agents WHERE agent_id = ?`).get(agentId) as rows.AgentRow | undefined;
  if (!agent) return null;
  const history = prepare(
    `SELECT ${rows.EVENT_COLUMNS} FROM reputation_events WHERE agent_id = ?${withPrivate ? '' : ' AND private = 0'} ORDER BY seq DESC LIMIT ?`,
  ).all(agentId, historyLimit) as rows.EventRow[];
  return rows.toProfile(agent, history);
}
