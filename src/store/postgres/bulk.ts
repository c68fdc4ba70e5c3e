// Bulk import for the PostgreSQL store: many units or skills in one transaction, writing exactly the rows
// contributeUnit / contributeSkill write (row — its search vector is generated —, skill_tags, reputation
// events, agent totals), as multi-row INSERT … SELECT FROM unnest(…) statements of up to ROWS_PER_STATEMENT
// rows, with each agent's totals moved once per batch. Contributing agents must already exist.
import type { Pool, PoolClient } from 'pg';
import type { ReputationAction } from '../../domain/model.js';
import { inTransaction, refuseUnstorable, run } from './db.js';
import type { SkillImport, UnitImport } from '../store.js';


/** Rows per statement: large enough to amortise round trips, small enough to keep parameters modest. */
const ROWS_PER_STATEMENT = 1_000;

// WITH ORDINALITY … ORDER BY: identity values (seq) follow the batch order, as one call per item would.
const INSERT_UNITS = `
INSERT INTO knowledge_units (id, agent_id, title, type, domain, description, examples, source, confidence,
  tags, base_quality, quality_score, created_at, updated_at)
SELECT t.id, t.agent_id, t.title, t.type, t.domain, t.description, t.examples::jsonb, t.source, t.confidence,
  t.tags::jsonb, t.base_quality, t.quality_score, t.created_at, t.updated_at
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
  $9::float8[], $10::text[], $11::float8[], $12::float8[], $13::text[], $14::text[])
  WITH ORDINALITY AS t(id, agent_id, title, type, domain, description, examples, source, confidence, tags,
    base_quality, quality_score, created_at, updated_at, ord)
ORDER BY t.ord`;

const INSERT_SKILLS = `
INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score,
  skill_md_content, body, created_at, updated_at)
SELECT t.id, t.agent_id, t.name, t.description, t.domain, t.tags::jsonb, t.license, t.visibility, t.quality_score,
  t.skill_md_content, t.body, t.created_at, t.updated_at
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
  $9::float8[], $10::text[], $11::text[], $12::text[], $13::text[])
  WITH ORDINALITY AS t(id, agent_id, name, description, domain, tags, license, visibility, quality_score,
    skill_md_content, body, created_at, updated_at, ord)
ORDER BY t.ord
RETURNING id, seq`;

const INSERT_SKILL_TAGS = 'INSERT INTO skill_tags (tag, skill_seq) SELECT t.tag, t.seq FROM unnest($1::text[], $2::bigint[]) AS t(tag, seq)';

const INSERT_EVENTS = `
INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at)
SELECT t.agent_id, $4::text, $5::int, t.target_id, t.created_at
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(agent_id, target_id, created_at, ord)
ORDER BY t.ord`;

const UPDATE_AGENTS = `
UPDATE agents AS a SET score_millis = a.score_millis + d.millis, contributions = a.contributions + d.n,
  updated_at = d.at
FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[]) AS d(agent_id, millis, n, at)
WHERE a.agent_id = d.agent_id`;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

interface Contribution {
  id: string;
  agent_id: string;
  created_at: string;
}

/** The reputation events and agent totals of a batch: what one reward per item would leave. */
async function reward(
  client: PoolClient,
  items: readonly Contribution[],
  action: ReputationAction,
  rewardMillis: number,
): Promise<void> {
  for (const chunk of chunks(items)) {
    await run(client, INSERT_EVENTS, [
      chunk.map((c) => c.agent_id),
      chunk.map((c) => c.id),
      chunk.map((c) => c.created_at),
      action,
      rewardMillis,
    ]);
  }
  const totals = new Map<string, { count: number; lastAt: string }>();
  for (const c of items) {
    const total = totals.get(c.agent_id);
    if (total) {
      total.count += 1;
      total.lastAt = c.created_at;
    } else totals.set(c.agent_id, { count: 1, lastAt: c.created_at });
  }
  // Sorted, so two imports touching the same agents lock their rows in the same order.
  const ids = [...totals.keys()].sort();
  const updated = await run(client, UPDATE_AGENTS, [
    ids,
    ids.map((id) => rewardMillis * totals.get(id)!.count),
    ids.map((id) => totals.get(id)!.count),
    ids.map((id) => totals.get(id)!.lastAt),
  ]);
  if (updated.rowCount !== ids.length) {
    throw new Error('bulk import: a contributing agent does not exist; create agents before importing their contributions');
  }
}

/** Imports knowledge units in one transaction, as contributeUnit would one by one (all or nothing). */
export async function importUnitsPostgres(pool: Pool, items: readonly UnitImport[], rewardMillis: number): Promise<void> {
  if (items.length === 0) return;
  for (const { unit } of items) refuseUnstorable(unit);
  await inTransaction(pool, async (client) => {
    for (const chunk of chunks(items)) {
      const units = chunk.map((item) => item.unit);
      await run(client, INSERT_UNITS, [
        units.map((u) => u.id),
        units.map((u) => u.agent_id),
        units.map((u) => u.title),
        units.map((u) => u.type),
        units.map((u) => u.domain),
        units.map((u) => u.content.description),
        units.map((u) => JSON.stringify(u.content.examples)),
        units.map((u) => u.metadata.source),
        units.map((u) => u.metadata.confidence),
        units.map((u) => JSON.stringify(u.tags)),
        chunk.map((item) => item.baseQuality),
        units.map((u) => u.quality_score),
        units.map((u) => u.created_at),
        units.map((u) => u.updated_at),
      ]);
    }
    await reward(client, items.map((item) => item.unit), 'contribute_knowledge', rewardMillis);
  });
}

/** Imports skills in one transaction, as contributeSkill would one by one (all or nothing). */
export async function importSkillsPostgres(pool: Pool, items: readonly SkillImport[], rewardMillis: number): Promise<void> {
  if (items.length === 0) return;
  for (const { skill, body } of items) {
    refuseUnstorable(skill);
    refuseUnstorable(body, 'body');
  }
  await inTransaction(pool, async (client) => {
    for (const chunk of chunks(items)) {
      const skills = chunk.map((item) => item.skill);
      const inserted = await run<{ id: string; seq: string }>(client, INSERT_SKILLS, [
        skills.map((s) => s.id),
        skills.map((s) => s.agent_id),
        skills.map((s) => s.name),
        skills.map((s) => s.description),
        skills.map((s) => s.domain),
        skills.map((s) => JSON.stringify(s.tags)),
        skills.map((s) => s.license),
        skills.map((s) => s.visibility),
        skills.map((s) => s.quality_score),
        skills.map((s) => s.skill_md_content),
        chunk.map((item) => item.body),
        skills.map((s) => s.created_at),
        skills.map((s) => s.updated_at),
      ]);
      const seqOf = new Map(inserted.rows.map((row) => [row.id, row.seq]));
      const tags: string[] = [];
      const seqs: string[] = [];
      for (const skill of skills) {
        for (const tag of new Set(skill.tags.map((t) => t.toLowerCase()))) {
          tags.push(tag);
          seqs.push(seqOf.get(skill.id)!);
        }
      }
      if (tags.length > 0) await run(client, INSERT_SKILL_TAGS, [tags, seqs]);
    }
    await reward(client, items.map((item) => item.skill), 'contribute_skill', rewardMillis);
  });
}
