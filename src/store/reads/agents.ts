// Agents and their keys, read once for every backend: a key by hash or by active prefix, which credential
// kind claimed an agent id, and the reputation profile with its newest history items.
import type { ApiKeyRecord, ReputationProfile } from '../../domain/model.js';
import * as rows from '../rows.js';
import { raw, sql, type Db } from '../sql.js';
import type { AgentStore, ReputationStore } from '../store.js';

export function agentReads(
  db: Db,
): Pick<AgentStore, 'findKeyByHash' | 'findActiveKeyByPrefix' | 'agentExists' | 'agentOrigin'> & ReputationStore {
  const key = async (condition: ReturnType<typeof sql>): Promise<ApiKeyRecord | null> => {
    const row = await db.get<rows.KeyRow>(sql`SELECT ${raw(rows.KEY_COLUMNS)} FROM api_keys WHERE ${condition}`);
    return row ? rows.toKey(row) : null;
  };
  const agentOrigin: AgentStore['agentOrigin'] = async (agentId) =>
    (await db.get<{ origin: 'api_key' | 'oidc' }>(sql`SELECT origin FROM agents WHERE agent_id = ${agentId}`))
      ?.origin ?? null;

  return {
    findKeyByHash: (keyHash) => key(sql`key_hash = ${keyHash}`),
    findActiveKeyByPrefix: (keyPrefix) => key(sql`key_prefix = ${keyPrefix} AND revoked_at IS NULL`),
    agentOrigin,
    agentExists: async (agentId) => (await agentOrigin(agentId)) !== null,
    async reputation(agentId, historyLimit, withPrivate = false): Promise<ReputationProfile | null> {
      const agent = await db.get<rows.AgentRow>(
        sql`SELECT ${raw(rows.AGENT_COLUMNS)} FROM agents WHERE agent_id = ${agentId}`,
      );
      if (!agent) return null;
      if (historyLimit <= 0) return rows.toProfile(agent, []);
      const history = await db.all<rows.EventRow>(
        sql`SELECT ${raw(rows.EVENT_COLUMNS)} FROM reputation_events WHERE agent_id = ${agentId}
          ${withPrivate ? raw('') : sql`AND private = ${false}`} ORDER BY seq DESC LIMIT ${historyLimit}`,
      );
      return rows.toProfile(agent, history);
    },
  };
}
