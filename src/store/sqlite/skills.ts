// Skills on SQLite, mirrored by ../postgres/skills.ts: publications (a new skill, a new version, or the
// same content again), the default version kept on the skill row (with its tags and full-text entry),
// yank, delete, and the reads of versions and files. Every write runs inside the caller's transaction.
import type { Skill, SkillVersionSummary } from '../../domain/model.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import {
  PublishRaceError,
  type DiscoveryEntry,
  type SkillBundle,
  type SkillExport,
  type SkillFileContent,
  type SkillIdentity,
  type SkillPlan,
  type StorageQuota,
} from '../store.js';
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

// ---- reads -----------------------------------------------------------------------------------------

export function findSkillByName(prepare: Prepare, agentId: string, name: string): SkillIdentity | null {
  const skill = prepare('SELECT seq, id, visibility FROM skills WHERE agent_id = ? AND name = ? AND legacy_duplicate = 0').get(agentId, name) as
    | { seq: number; id: string; visibility: string }
    | undefined;
  if (!skill) return null;
  const versions = prepare('SELECT version, digest, yanked FROM skill_versions WHERE skill_seq = ?').all(skill.seq) as {
    version: string;
    digest: string;
    yanked: number;
  }[];
  return {
    skillId: skill.id,
    visibility: skill.visibility as SkillIdentity['visibility'],
    versions: versions.map((v) => ({ version: v.version, digest: v.digest, yanked: v.yanked === 1 })),
  };
}

/** The version row a read means: the one named, else the skill's default (the newest when all are yanked). */
function versionRow(prepare: Prepare, id: string, version: string | undefined): skillRows.SkillVersionRow | undefined {
  const sql = `SELECT ${skillRows.SKILL_VERSION_COLUMNS} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq
    WHERE s.id = ? AND v.version = ${version === undefined ? 's.version' : '?'}`;
  return prepare(sql).get(...(version === undefined ? [id] : [id, version])) as skillRows.SkillVersionRow | undefined;
}

export function getSkill(prepare: Prepare, id: string, version?: string): Skill | null {
  const row = versionRow(prepare, id, version);
  if (!row) return null;
  const files = prepare(`SELECT ${skillRows.SKILL_FILE_COLUMNS} FROM skill_files WHERE version_seq = ? ORDER BY path`).all(
    row.version_seq,
  ) as skillRows.SkillFileRow[];
  return skillRows.toSkill(row, files, rows.sqliteDecode);
}

export function listVersions(prepare: Prepare, id: string): SkillVersionSummary[] | null {
  const skill = prepare('SELECT seq FROM skills WHERE id = ?').pluck().get(id) as number | undefined;
  if (skill === undefined) return null;
  const versions = prepare(`SELECT ${skillRows.VERSION_SUMMARY_COLUMNS} FROM skill_versions v WHERE v.skill_seq = ?`).all(
    skill,
  ) as skillRows.VersionSummaryRow[];
  return versions.map((v) => skillRows.toVersionSummary(v, rows.sqliteDecode));
}

export function getFile(prepare: Prepare, id: string, version: string | null, path: string): SkillFileContent | null {
  const row = versionRow(prepare, id, version ?? undefined);
  if (!row) return null;
  if (path === 'SKILL.md') {
    const content = Buffer.from(row.skill_md_content, 'utf8');
    return { version: row.version, content, size: content.length, digest: '', mediaType: 'text/markdown; charset=utf-8' };
  }
  const file = prepare('SELECT content, size, digest, media_type FROM skill_files WHERE version_seq = ? AND path = ?').get(
    row.version_seq,
    path,
  ) as { content: Buffer; size: number; digest: string; media_type: string } | undefined;
  return file ? { version: row.version, content: file.content, size: file.size, digest: file.digest, mediaType: file.media_type } : null;
}

export function getBundle(prepare: Prepare, id: string, version: string): SkillBundle | null {
  const row = versionRow(prepare, id, version);
  if (!row) return null;
  const files = prepare('SELECT path, content FROM skill_files WHERE version_seq = ? ORDER BY path').all(row.version_seq) as {
    path: string;
    content: Buffer;
  }[];
  return { version: row.version, skillMd: row.skill_md_content, files };
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
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score, skill_md_content,
           created_at, updated_at, bytes) VALUES (?, ?, ?, '', NULL, '[]', NULL, ?, 0, '', ?, ?, 0)`,
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
 * the skill row and re-indexing its tags and full-text entry. With every version yanked the row shows
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
    `SELECT version, digest, display_name, description, domain, tags, license, quality_score, conformant, skill_md_content, body,
       file_count, created_at FROM skill_versions WHERE seq = ?`,
  ).get(chosen.seq) as {
    version: string; digest: string; display_name: string; description: string; domain: string | null; tags: string;
    license: string | null; quality_score: number; conformant: number; skill_md_content: string; body: string; file_count: number;
    created_at: string;
  };
  prepare(
    `UPDATE skills SET version = ?, latest_version_seq = ?, digest = ?, display_name = ?, description = ?, domain = ?, tags = ?,
       license = ?, quality_score = ?, conformant = ?, skill_md_content = ?, file_count = ?, published_at = ?, updated_at = ?
     WHERE seq = ?`,
  ).run(v.version, live === null ? null : chosen.seq, v.digest, v.display_name, v.description, v.domain, v.tags, v.license,
    v.quality_score, v.conformant, v.skill_md_content, v.file_count, v.created_at, at, skillSeq);
  const tags = JSON.parse(v.tags) as string[];
  prepare('DELETE FROM skill_tags WHERE skill_seq = ?').run(skillSeq);
  const tagRow = prepare('INSERT OR IGNORE INTO skill_tags (tag, skill_seq) VALUES (?, ?)');
  for (const tag of skillRows.tagKeys(tags)) tagRow.run(tag, skillSeq);
  prepare('DELETE FROM skills_fts WHERE rowid = ?').run(skillSeq);
  if (live !== null) {
    prepare('INSERT INTO skills_fts (rowid, name, description, tags, body) VALUES (?, ?, ?, ?, ?)').run(
      skillSeq,
      `${prepare('SELECT name FROM skills WHERE seq = ?').pluck().get(skillSeq) as string} ${v.display_name}`,
      v.description,
      tags.join(' '),
      v.body,
    );
  }
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
  prepare('DELETE FROM skills_fts WHERE rowid = ?').run(skill.seq);
  prepare('DELETE FROM skills WHERE seq = ?').run(skill.seq);
  moveUsage(prepare, skill.agent_id, 0, -1, -skill.bytes);
  takeBack(prepare, skill.agent_id, 'contribute_skill', id, at, skill.visibility === 'private');
  return true;
}

// ---- discovery index and export --------------------------------------------------------------------

const BATCH = 500;
const EXPORT_SKILLS_BATCH = 8;

export async function* discoveryIndex(prepare: Prepare): AsyncGenerator<DiscoveryEntry> {
  let after = 0;
  for (;;) {
    const batch = prepare(
      `SELECT seq, id, name, description, version, digest, file_count FROM skills
       WHERE visibility = 'public' AND latest_version_seq IS NOT NULL AND seq > ? ORDER BY seq LIMIT ?`,
    ).all(after, BATCH) as { seq: number; id: string; name: string; description: string; version: string; digest: string; file_count: number }[];
    for (const s of batch) yield { id: s.id, name: s.name, description: s.description, version: s.version, digest: s.digest, fileCount: s.file_count };
    if (batch.length < BATCH) return;
    after = batch[batch.length - 1]!.seq;
  }
}

/** Every skill of an agent with every version and its files, a few skills per read. */
export async function* exportSkills(prepare: Prepare, agentId: string): AsyncGenerator<SkillExport> {
  let after = 0;
  for (;;) {
    const batch = prepare(
      `SELECT seq, id, name, visibility, created_at, updated_at, CASE WHEN latest_version_seq IS NULL THEN NULL ELSE version END AS latest
       FROM skills WHERE agent_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ).all(agentId, after, EXPORT_SKILLS_BATCH) as {
      seq: number; id: string; name: string; visibility: string; created_at: string; updated_at: string; latest: string | null;
    }[];
    for (const s of batch) {
      const versions = prepare('SELECT version FROM skill_versions WHERE skill_seq = ? ORDER BY seq').pluck().all(s.seq) as string[];
      yield {
        id: s.id,
        name: s.name,
        visibility: s.visibility as SkillExport['visibility'],
        created_at: s.created_at,
        updated_at: s.updated_at,
        latest_version: s.latest,
        versions: versions.map((version) => {
          const { files, ...view } = getSkill(prepare, s.id, version)!;
          const contents = new Map(getBundle(prepare, s.id, version)!.files.map((f) => [f.path, f.content]));
          return { ...view, files: files.map((f) => ({ ...f, content_base64: Buffer.from(contents.get(f.path)!).toString('base64') })) };
        }),
      };
    }
    if (batch.length < EXPORT_SKILLS_BATCH) return;
    after = batch[batch.length - 1]!.seq;
  }
}
