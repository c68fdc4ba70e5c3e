// Skills on SQLite, mirrored by ../postgres/skills.ts: publications (a new skill, a new version, or the
// same content again), the default version kept on the skill row (with its tags), yank and delete; the
// reads are every backend's (../reads/skills.ts). Every write runs inside the caller's transaction.
import { tagKeys } from '../../domain/tags.js';
import * as skillRows from '../skill-rows.js';
import type { Visibility } from '../../domain/model.js';
import { PublishRaceError, VersionLimitError, type SkillPlan, type StorageQuota } from '../store.js';
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
    const held = prepare(
      'SELECT 1 FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq WHERE s.id = ? AND v.version = ? AND v.digest = ?',
    ).get(plan.skillId, plan.version.version, plan.version.digest);
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
      if (isUniqueViolation(error, 'skills.agent_id') || isUniqueViolation(error, 'skills.id'))
        throw new PublishRaceError();
      throw error;
    }
    reward(prepare, plan.agentId, 'contribute_skill', plan.rewardMillis, plan.skillId, at, {
      private: plan.visibility === 'private',
    });
  } else {
    const found = prepare('SELECT seq, agent_id, visibility FROM skills WHERE id = ? AND agent_id = ?').get(
      plan.skillId,
      plan.agentId,
    ) as SkillRef | undefined;
    if (!found) throw new PublishRaceError();
    skill = found;
    if (plan.maxVersions !== null) {
      const held = prepare('SELECT count(*) FROM skill_versions WHERE skill_seq = ?').pluck().get(found.seq) as number;
      if (held >= plan.maxVersions) throw new VersionLimitError(plan.maxVersions);
    }
    moveUsage(prepare, plan.agentId, 0, 0, bytes, quota);
    // Visibility belongs to the skill: a plan made before it changed is planned again (and refused).
    if (found.visibility !== plan.visibility) throw new PublishRaceError();
  }
  let versionSeq: number;
  try {
    versionSeq = Number(
      prepare(INSERT_VERSION).run(...skillRows.versionValues(skill.seq, plan.version, bool)).lastInsertRowid,
    );
  } catch (error) {
    if (isUniqueViolation(error, 'skill_versions.skill_seq')) throw new PublishRaceError();
    throw error;
  }
  const file = prepare(
    'INSERT INTO skill_files (version_seq, path, content, size, digest, media_type) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const f of plan.version.files)
    file.run(versionSeq, f.path, Buffer.from(f.content), f.size, f.digest, f.mediaType);
  refreshDefault(prepare, skill.seq, at, bytes);
}

/** Who sees a skill (every version of it); its history items follow (public profiles hide private ones). */
export function setVisibility(
  prepare: Prepare,
  id: string,
  visibility: Visibility,
  at: string,
): 'changed' | 'unchanged' | 'not_found' {
  const skill = prepare('SELECT seq, agent_id, visibility FROM skills WHERE id = ?').get(id) as SkillRef | undefined;
  if (!skill) return 'not_found';
  if (skill.visibility === visibility) return 'unchanged';
  prepare('UPDATE skills SET visibility = ?, updated_at = ? WHERE seq = ?').run(visibility, at, skill.seq);
  prepare('UPDATE reputation_events SET private = ? WHERE agent_id = ? AND target_id = ?').run(
    bool(visibility === 'private'),
    skill.agent_id,
    id,
  );
  return 'changed';
}

/**
 * Points the skill at its default version, copying that version's searchable fields onto the skill row and
 * re-indexing its tags, and adds `bytes` to its size (one update of the row): the highest release that is
 * not yanked, else the highest pre-release (the domain's latestVersion; this order is tested against it),
 * found through the versions' index. With every version yanked the row shows the highest version and
 * leaves lists and search (latest_version_seq NULL).
 */
export function refreshDefault(prepare: Prepare, skillSeq: number, at: string, bytes = 0): void {
  const pick = (condition: string) =>
    prepare(
      `SELECT seq FROM skill_versions WHERE skill_seq = ?${condition} ORDER BY is_release DESC, sort_key DESC, seq DESC LIMIT 1`,
    )
      .pluck()
      .get(skillSeq) as number | undefined;
  // A held version is never the default; the row shows a held one only when every version is held.
  const live = pick(' AND yanked = 0 AND held_at IS NULL') ?? null;
  const chosen = live ?? pick(' AND held_at IS NULL') ?? pick('');
  if (chosen === undefined) return;
  const v = prepare(
    `SELECT version, digest, display_name, description, domain, tags, license, quality_score, conformant, file_count, created_at,
       held_at IS NOT NULL AS held, verdict, findings_count
     FROM skill_versions WHERE seq = ?`,
  ).get(chosen) as {
    held: number;
    verdict: string | null;
    findings_count: number | null;
    version: string;
    digest: string;
    display_name: string;
    description: string;
    domain: string | null;
    tags: string;
    license: string | null;
    quality_score: number;
    conformant: number;
    file_count: number;
    created_at: string;
  };
  prepare(
    `UPDATE skills SET version = ?, latest_version_seq = ?, digest = ?, display_name = ?, description = ?, domain = ?, tags = ?,
       license = ?, quality_score = ?, conformant = ?, file_count = ?, published_at = ?, updated_at = ?, bytes = bytes + ?,
       version_held = ?, verdict = ?, findings_count = ?
     WHERE seq = ?`,
  ).run(
    v.version,
    live,
    v.digest,
    v.display_name,
    v.description,
    v.domain,
    v.tags,
    v.license,
    v.quality_score,
    v.conformant,
    v.file_count,
    v.created_at,
    at,
    bytes,
    v.held,
    v.verdict,
    v.findings_count,
    skillSeq,
  );
  prepare('DELETE FROM skill_tags WHERE skill_seq = ?').run(skillSeq);
  const tagRow = prepare('INSERT OR IGNORE INTO skill_tags (tag, skill_seq) VALUES (?, ?)');
  for (const tag of tagKeys(JSON.parse(v.tags) as string[])) tagRow.run(tag, skillSeq);
}

// ---- yank and delete -------------------------------------------------------------------------------

export function setYanked(
  prepare: Prepare,
  id: string,
  version: string,
  yanked: boolean,
  at: string,
): 'changed' | 'unchanged' | 'not_found' {
  const row = prepare(
    'SELECT s.seq AS skill_seq, v.seq, v.yanked FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq WHERE s.id = ? AND v.version = ?',
  ).get(id, version) as { skill_seq: number; seq: number; yanked: number } | undefined;
  if (!row) return 'not_found';
  if ((row.yanked === 1) === yanked) return 'unchanged';
  prepare('UPDATE skill_versions SET yanked = ?, yanked_at = ? WHERE seq = ?').run(
    bool(yanked),
    yanked ? at : null,
    row.seq,
  );
  refreshDefault(prepare, row.skill_seq, at);
  return 'changed';
}

/** Deletes the skill (versions, files and tags go by ON DELETE CASCADE) and takes its reward back. */
export function deleteSkill(prepare: Prepare, id: string, at: string): boolean {
  const skill = prepare('SELECT seq, agent_id, visibility, bytes FROM skills WHERE id = ?').get(id) as
    (SkillRef & { bytes: number }) | undefined;
  if (!skill) return false;
  prepare('DELETE FROM skills WHERE seq = ?').run(skill.seq);
  moveUsage(prepare, skill.agent_id, 0, -1, -skill.bytes);
  takeBack(prepare, skill.agent_id, 'contribute_skill', id, at, skill.visibility === 'private');
  return true;
}
