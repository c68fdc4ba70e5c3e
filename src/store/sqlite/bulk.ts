// Bulk import for the SQLite store: many units or skills in one transaction, writing exactly the rows
// contributeUnit / contributeSkill write (row, FTS row keyed by seq, skill_tags, reputation event, agent
// totals), with statements prepared once per database and each agent's totals moved once per batch.
// Used to load benchmark corpora and by operator imports; contributing agents must already exist.
import type { Database, Statement } from 'better-sqlite3';
import type { SkillImport, UnitImport } from '../store.js';

interface Statements {
  unit: Statement;
  unitFts: Statement;
  skill: Statement;
  skillTag: Statement;
  skillFts: Statement;
  event: Statement;
  agent: Statement;
}

const prepared = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let s = prepared.get(db);
  if (!s) {
    s = {
      unit: db.prepare(
        `INSERT INTO knowledge_units (id, agent_id, title, type, domain, description, examples, source, confidence,
           tags, base_quality, quality_score, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      unitFts: db.prepare(
        'INSERT INTO knowledge_fts (rowid, title, description, examples, domain, tags) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      skill: db.prepare(
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score,
           skill_md_content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      skillTag: db.prepare('INSERT OR IGNORE INTO skill_tags (tag, skill_seq) VALUES (?, ?)'),
      skillFts: db.prepare('INSERT INTO skills_fts (rowid, name, description, tags, body) VALUES (?, ?, ?, ?, ?)'),
      event: db.prepare(
        'INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      agent: db.prepare(
        `UPDATE agents SET score_millis = score_millis + ?, contributions = contributions + ?, updated_at = ?
         WHERE agent_id = ?`,
      ),
    };
    prepared.set(db, s);
  }
  return s;
}

/** Per agent: how many contributions the batch holds, and the time of its last one (batch order). */
class AgentTotals {
  private readonly totals = new Map<string, { count: number; lastAt: string }>();

  add(agentId: string, at: string): void {
    const total = this.totals.get(agentId);
    if (total) {
      total.count += 1;
      total.lastAt = at;
    } else this.totals.set(agentId, { count: 1, lastAt: at });
  }

  /** The same totals that one contribute call per item would leave; an unknown agent aborts the batch. */
  apply(update: Statement, rewardMillis: number): void {
    for (const [agentId, { count, lastAt }] of this.totals) {
      if (update.run(rewardMillis * count, count, lastAt, agentId).changes !== 1) {
        throw new Error(`bulk import: agent ${agentId} does not exist; create it before importing its contributions`);
      }
    }
  }
}

/** Imports knowledge units in one transaction, as contributeUnit would one by one (all or nothing). */
export function importUnitsSqlite(db: Database, items: readonly UnitImport[], rewardMillis: number): void {
  if (items.length === 0) return;
  const s = statements(db);
  db.transaction(() => {
    const agents = new AgentTotals();
    for (const { unit, baseQuality } of items) {
      const { lastInsertRowid: seq } = s.unit.run(
        unit.id,
        unit.agent_id,
        unit.title,
        unit.type,
        unit.domain,
        unit.content.description,
        JSON.stringify(unit.content.examples),
        unit.metadata.source,
        unit.metadata.confidence,
        JSON.stringify(unit.tags),
        baseQuality,
        unit.quality_score,
        unit.created_at,
        unit.updated_at,
      );
      s.unitFts.run(seq, unit.title, unit.content.description, unit.content.examples.join('\n'), unit.domain, unit.tags.join(' '));
      s.event.run(unit.agent_id, 'contribute_knowledge', rewardMillis, unit.id, unit.created_at);
      agents.add(unit.agent_id, unit.created_at);
    }
    agents.apply(s.agent, rewardMillis);
  }).immediate();
}

/** Imports skills in one transaction, as contributeSkill would one by one (all or nothing). */
export function importSkillsSqlite(db: Database, items: readonly SkillImport[], rewardMillis: number): void {
  if (items.length === 0) return;
  const s = statements(db);
  db.transaction(() => {
    const agents = new AgentTotals();
    for (const { skill, body } of items) {
      const { lastInsertRowid: seq } = s.skill.run(
        skill.id,
        skill.agent_id,
        skill.name,
        skill.description,
        skill.domain,
        JSON.stringify(skill.tags),
        skill.license,
        skill.visibility,
        skill.quality_score,
        skill.skill_md_content,
        skill.created_at,
        skill.updated_at,
      );
      for (const tag of skill.tags) s.skillTag.run(tag.toLowerCase(), seq);
      s.skillFts.run(seq, skill.name, skill.description, skill.tags.join(' '), body);
      s.event.run(skill.agent_id, 'contribute_skill', rewardMillis, skill.id, skill.created_at);
      agents.add(skill.agent_id, skill.created_at);
    }
    agents.apply(s.agent, rewardMillis);
  }).immediate();
}
