// Migration 5: what the second round of defences keeps: look-alike agent ids, verdict weights, storage usage,
// and which history items are private.
// Never edit a migration that has shipped: add the next number.
import { AGENT_USAGE_BACKFILL } from '../../migration-backfills.js';
import type { Database } from 'better-sqlite3';
import { agentIdSkeleton } from '../../../domain/agent-ids.js';

export const name = 'look-alike ids, verdict weights, storage usage, private history';

export const sql = `
-- One agent per skeleton (TR39 confusables, as written and case-folded), so no id can pass for another.
-- Agents that already collide keep their ids; only the first of them holds the skeleton.
CREATE TABLE agent_skeletons (
  skeleton TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(agent_id)
) WITHOUT ROWID;

-- Verdicts weigh by the validator's standing when given; the unit keeps the weighted sums.
ALTER TABLE verdicts ADD COLUMN weight REAL NOT NULL DEFAULT 1;
ALTER TABLE knowledge_units ADD COLUMN valid_weight REAL NOT NULL DEFAULT 0;
ALTER TABLE knowledge_units ADD COLUMN invalid_weight REAL NOT NULL DEFAULT 0;
UPDATE knowledge_units SET valid_weight = valid_count, invalid_weight = invalid_count;

-- Storage each contribution takes (bytes of its text), and each agent's usage, for the quotas.
ALTER TABLE knowledge_units ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE skills ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
UPDATE knowledge_units SET bytes = length(CAST(title AS BLOB)) + length(CAST(domain AS BLOB)) + length(CAST(description AS BLOB))
  + length(CAST(examples AS BLOB)) + length(CAST(source AS BLOB)) + length(CAST(tags AS BLOB));
UPDATE skills SET bytes = length(CAST(skill_md_content AS BLOB));
ALTER TABLE agents ADD COLUMN unit_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN skill_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
${AGENT_USAGE_BACKFILL}

-- History items about private skills are left out of the public profile.
ALTER TABLE reputation_events ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
UPDATE reputation_events SET private = 1 WHERE target_id IN (SELECT id FROM skills WHERE visibility = 'private');
CREATE INDEX reputation_events_public ON reputation_events(agent_id, seq) WHERE private = 0;
`;

/**
 * The skeletons of the agents that exist, oldest first (the first of two look-alikes keeps its own), as
 * today's rule computes them (migration 12 computes them again, and shares this).
 */
export function backfill(db: Database): void {
  const insert = db.prepare('INSERT INTO agent_skeletons (skeleton, agent_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  // Read whole first: better-sqlite3 runs no other statement on a connection while one iterates.
  const agentIds = db.prepare('SELECT agent_id FROM agents ORDER BY created_at, agent_id').pluck().all() as string[];
  for (const agentId of agentIds) insert.run(agentIdSkeleton(agentId), agentId);
}
