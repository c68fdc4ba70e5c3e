// Skills on SQLite, mirrored by ../postgres/skills.ts: publications (a new skill, a new version, or the
// same content again), the default version kept on the skill row (with its tags), yank and delete; the
// reads are every backend's (../reads/skills.ts). Every write runs inside the caller's transaction.
import * as skillRows from '../skill-rows.js';
import { PublishRaceError, type SkillPlan, type StorageQuota } from '../store.js';
import type { Prepare } from './connection.js';
import { isUniqueViolation } from './errors.js';
import { moveUsage, reward, takeBack } from './writes.js';

const bool = (b: boolean) => (b ? 1 : 0);
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const INSERT_VERSION = `INSERT INTO skill_versions (${skillRows.VERSION_INSERT_COLUMNS.join(', ')})
  VALUES (${placeholders(skillRows.VERSION_INSERT_COLUMNS.length)})`;

interface SkillRef {
  seq: number;
  agent_id: string;
  visibility: string;
}

// ---- publication -----------------------------------------------------------------------------------

export function publish(prepare: Prepare, plan: SkillPlan, quota: StorageQuota | undefined): void {
  const at = plan.version.publishedAt;
  if (plan.kind === 'same') {
    const held = prepare('SELECT 1 FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq WHERE s.id = ? AND v.version = ? AND v.digest = ?').get(
      plan.skillId,
      plan.version.version,
      plan.version.digest,
    );
    if (!held) throw new PublishRaceError();
    return;
  }
  const bytes = skillRows.versionBytes(plan.version);
  let skill: SkillRef;
  if (plan.kind === 'create') {
    moveUsage(prepare, plan.agentId, 0, 1, bytes, quota);
    try {
      const { lastInsertRowid } = prepare(
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score, created_at, updated_at, bytes)
         VALUES (?, ?, ?, '', NULL, '[]', NULL, ?, 0, ?, ?, 0)`,
      ).run(plan.skillId, plan.agentId, plan.name, plan.visibility, at, at);
      skill = { seq: Number(lastInsertRowid), agent_id: plan.agentId, visibility: plan.visibility };
    } catch (error) {
      if (isUniqueViolation(error, 'skills.agent_id') || isUniqueViolation(error, 'skills.id')) throw new PublishRaceError();
      throw error;
    }
    reward(prepare, plan.agentId, 'contribute_skill', plan.rewardMillis, plan.skillId, at, { private: plan.visibility === 'private' });
  } else {
    const found = prepare('SELECT seq, agent_id, visibility FROM skills WHERE id = ? AND agent_id = ?').get(plan.skillId, plan.agentId) as
      | SkillRef
      | undefined;
    if (!found) throw new PublishRaceError();
    skill = found;
    moveUsage(prepare, plan.agentId, 0, 0, bytes, quota);
    if (found.visibility !== plan.visibility) setVisibility(prepare, skill, plan);
  }
  let versionSeq: number;
  try {
    versionSeq = Number(prepare(INSERT_VERSION).run(...skillRows.versionValues(skill.seq, plan.version, bool)).lastInsertRowid);
  } catch (error) {
    if (isUniqueViolation(error, 'skill_versions.skill_seq')) throw new PublishRaceError();
    throw error;
  }
  const file = prepare('INSERT INTO skill_files (version_seq, path, content, size, digest, media_type) VALUES (?, ?, ?, ?, ?, ?)');
  for (const f of plan.version.files) file.run(versionSeq, f.path, Buffer.from(f.content), f.size, f.digest, f.mediaType);
  prepare('UPDATE skills SET bytes = bytes + ?, updated_at = ? WHERE seq = ?').run(bytes, at, skill.seq);
  refreshDefault(prepare, skill.seq, plan.pickLatest, at);
}

/** A new version may change who sees the skill; its history items follow (public profiles hide private ones). */
function setVisibility(prepare: Prepare, skill: SkillRef, plan: SkillPlan): void {
  prepare('UPDATE skills SET visibility = ? WHERE seq = ?').run(plan.visibility, skill.seq);
  prepare('UPDATE reputation_events SET private = ? WHERE agent_id = ? AND target_id = ?').run(bool(plan.visibility === 'private'), plan.agentId, plan.skillId);
}

/**
 * Points the skill at the version `pickLatest` chooses, copying that version's searchable fields onto
 * the skill row and re-indexing its tags. With every version yanked the row shows
 * the newest version and leaves lists and search (latest_version_seq NULL).
 */
export function refreshDefault(prepare: Prepare, skillSeq: number, pickLatest: SkillPlan['pickLatest'], at: string): void {
  const versions = prepare('SELECT seq, version, yanked FROM skill_versions WHERE skill_seq = ?').all(skillSeq) as {
    seq: number;
    version: string;
    yanked: number;
  }[];
  const live = pickLatest(versions.map((v) => ({ version: v.version, yanked: v.yanked === 1 })));
  const shown = live ?? pickLatest(versions.map((v) => ({ version: v.version, yanked: false })));
  const chosen = versions.find((v) => v.version === shown);
  if (!chosen) return;
  const v = prepare(
    `SELECT version, digest, display_name, description, domain, tags, license, quality_score, conformant, file_count, created_at
     FROM skill_versions WHERE seq = ?`,
  ).get(chosen.seq) as {
    version: string; digest: string; display_name: string; description: string; domain: string | null; tags: string;
    license: string | null; quality_score: number; conformant: number; file_count: number; created_at: string;
  };
  prepare(
    `UPDATE skills SET version = ?, latest_version_seq = ?, digest = ?, display_name = ?, description = ?, domain = ?, tags = ?,
       license = ?, quality_score = ?, conformant = ?, file_count = ?, published_at = ?, updated_at = ?
     WHERE seq = ?`,
  ).run(v.version, live === null ? null : chosen.seq, v.digest, v.display_name, v.description, v.domain, v.tags, v.license,
    v.quality_score, v.conformant, v.file_count, v.created_at, at, skillSeq);
  prepare('DELETE FROM skill_tags WHERE skill_seq = ?').run(skillSeq);
  const tagRow = prepare('INSERT OR IGNORE INTO skill_tags (tag, skill_seq) VALUES (?, ?)');
  for (const tag of skillRows.tagKeys(JSON.parse(v.tags) as string[])) tagRow.run(tag, skillSeq);
}

// ---- yank and delete -------------------------------------------------------------------------------

export function setYanked(
  prepare: Prepare,
  id: string,
  version: string,
  yanked: boolean,
  at: string,
  pickLatest: SkillPlan['pickLatest'],
): 'changed' | 'unchanged' | 'not_found' {
  const row = prepare('SELECT s.seq AS skill_seq, v.seq, v.yanked FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq WHERE s.id = ? AND v.version = ?').get(
    id,
    version,
  ) as { skill_seq: number; seq: number; yanked: number } | undefined;
  if (!row) return 'not_found';
  if ((row.yanked === 1) === yanked) return 'unchanged';
  prepare('UPDATE skill_versions SET yanked = ?, yanked_at = ? WHERE seq = ?').run(bool(yanked), yanked ? at : null, row.seq);
  refreshDefault(prepare, row.skill_seq, pickLatest, at);
  return 'changed';
}

/** Deletes the skill (versions, files and tags go by ON DELETE CASCADE) and takes its reward back. */
export function deleteSkill(prepare: Prepare, id: string, at: string): boolean {
  const skill = prepare('SELECT seq, agent_id, visibility, bytes FROM skills WHERE id = ?').get(id) as
    | (SkillRef & { bytes: number })
    | undefined;
  if (!skill) return false;
  prepare('DELETE FROM skills WHERE seq = ?').run(skill.seq);
  moveUsage(prepare, skill.agent_id, 0, -1, -skill.bytes);
  takeBack(prepare, skill.agent_id, 'contribute_skill', id, at, skill.visibility === 'private');
  return true;
}
