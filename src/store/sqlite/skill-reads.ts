// Skill reads on SQLite, mirrored by ../postgres/skill-reads.ts: a skill by name (what a publication
// plans from), a version with its files, the version list, one file or a version's bundle, and the
// discovery index and export in keyset batches. The writes are in skills.ts.
import type { Skill, SkillVersionSummary } from '../../domain/model.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import type { DiscoveryEntry, HostSkill, SkillBundle, SkillExport, SkillFileContent, SkillIdentity } from '../store.js';
import type { Prepare } from './connection.js';

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

const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function hostSkills(prepare: Prepare, ids: readonly string[]): HostSkill[] {
  if (ids.length === 0) return [];
  const found = prepare(
    `SELECT ${skillRows.HOST_SKILL_COLUMNS} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq AND v.version = s.version
     WHERE s.id IN (${list(ids.length)})`,
  ).all(...ids) as skillRows.HostSkillRow[];
  if (found.length === 0) return [];
  const versions = found.map((row) => row.version_seq);
  const files = prepare(
    `SELECT version_seq, ${skillRows.SKILL_FILE_COLUMNS} FROM skill_files WHERE version_seq IN (${list(versions.length)}) ORDER BY version_seq, path`,
  ).all(...versions) as (skillRows.SkillFileRow & { version_seq: number })[];
  return skillRows.toHostSkills(found, files);
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
    ).all(agentId, after, EXPORT_SKILLS_BATCH) as (skillRows.SkillExportRow & { seq: number })[];
    for (const s of batch) {
      const versions = prepare('SELECT version FROM skill_versions WHERE skill_seq = ? ORDER BY seq').pluck().all(s.seq) as string[];
      yield skillRows.toSkillExport(
        s,
        versions.map((version) => skillRows.exportedVersion(getSkill(prepare, s.id, version)!, getBundle(prepare, s.id, version)!)),
      );
    }
    if (batch.length < EXPORT_SKILLS_BATCH) return;
    after = batch[batch.length - 1]!.seq;
  }
}
