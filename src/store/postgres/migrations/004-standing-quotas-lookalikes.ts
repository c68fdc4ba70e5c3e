// Migration 4: what the second round of defences keeps: look-alike agent ids, verdict weights, storage usage,
// and which history items are private (as SQLite's migration 5).
// Never edit a migration that has shipped: add the next number.
import { AGENT_USAGE_BACKFILL } from '../../migration-backfills.js';
import type pg from 'pg';
import { agentIdSkeleton } from '../../../domain/agent-ids.js';

export const name = 'look-alike ids, verdict weights, storage usage, private history';

export const sql = `
-- One agent per skeleton (TR39 confusables, as written and case-folded), so no id can pass for another.
-- Agents that already collide keep their ids; only the first of them holds the skeleton.
CREATE TABLE agent_skeletons (
  skeleton text COLLATE "C" PRIMARY KEY,
  agent_id text COLLATE "C" NOT NULL REFERENCES agents(agent_id)
);

-- Verdicts weigh by the validator's standing when given; the unit keeps the weighted sums.
ALTER TABLE verdicts ADD COLUMN weight double precision NOT NULL DEFAULT 1;
ALTER TABLE knowledge_units ADD COLUMN valid_weight double precision NOT NULL DEFAULT 0;
ALTER TABLE knowledge_units ADD COLUMN invalid_weight double precision NOT NULL DEFAULT 0;
UPDATE knowledge_units SET valid_weight = valid_count, invalid_weight = invalid_count WHERE valid_count + invalid_count > 0;

-- Storage each contribution takes (bytes of its text), and each agent's usage, for the quotas.
ALTER TABLE knowledge_units ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE skills ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
UPDATE knowledge_units SET bytes = octet_length(title) + octet_length(domain) + octet_length(description)
  + octet_length(examples::text) + octet_length(source) + octet_length(tags::text);
UPDATE skills SET bytes = octet_length(skill_md_content);
ALTER TABLE agents ADD COLUMN unit_count integer NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN skill_count integer NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0;
${AGENT_USAGE_BACKFILL}

-- History items about private skills are left out of the public profile.
ALTER TABLE reputation_events ADD COLUMN private boolean NOT NULL DEFAULT false;
UPDATE reputation_events SET private = true WHERE target_id IN (SELECT id FROM skills WHERE visibility = 'private');
CREATE INDEX reputation_events_public ON reputation_events(agent_id, seq) WHERE NOT private;
`;

/**
 * The skeletons of the agents that exist, oldest first (the first of two look-alikes keeps its own), as
 * today's rule computes them (migration 11 computes them again, and shares this).
 */
export async function backfill(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ agent_id: string }>(
    'SELECT agent_id FROM agents ORDER BY created_at, agent_id',
  );
  for (let i = 0; i < rows.length; i += 1_000) {
    const pairs = rows.slice(i, i + 1_000).map((row) => [agentIdSkeleton(row.agent_id), row.agent_id] as const);
    await client.query(
      `INSERT INTO agent_skeletons (skeleton, agent_id) SELECT s, a FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(s, a, ord)
       ORDER BY ord ON CONFLICT DO NOTHING`,
      [pairs.map(([s]) => s), pairs.map(([, a]) => a)],
    );
  }
}
