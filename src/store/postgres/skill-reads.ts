// Skill reads on PostgreSQL, mirrored by ../sqlite/skill-reads.ts: a skill by name (what a publication
// plans from), a version with its files, the version list, one file or a version's bundle, and the
// discovery index and export in keyset batches. The writes are in skills.ts.
import type { Skill, SkillVersionSummary } from '../../domain/model.js';
import * as rows from '../rows.js';
import * as skillRows from '../skill-rows.js';
import type { DiscoveryEntry, HostSkill, SkillBundle, SkillExport, SkillFileContent, SkillIdentity } from '../store.js';
import { run, type Queryable } from './connection.js';

// ---- reads -----------------------------------------------------------------------------------------

export async function findSkillByName(db: Queryable, agentId: string, name: string): Promise<SkillIdentity | null> {
  const [skill] = (
    await run<{ seq: string; id: string; visibility: string }>(
      db,
      'SELECT seq, id, visibility FROM skills WHERE agent_id = $1 AND name = $2 AND NOT legacy_duplicate',
      [agentId, name],
    )
  ).rows;
  if (!skill) return null;
  const versions = await run<{ version: string; digest: string; yanked: boolean }>(
    db,
    'SELECT version, digest, yanked FROM skill_versions WHERE skill_seq = $1',
    [skill.seq],
  );
  return { skillId: skill.id, visibility: skill.visibility as SkillIdentity['visibility'], versions: versions.rows };
}

/** The version row a read means: the one named, else the skill's default (the newest when all are yanked). */
async function versionRow(db: Queryable, id: string, version: string | undefined): Promise<skillRows.SkillVersionRow | undefined> {
  const sql = `SELECT ${skillRows.SKILL_VERSION_COLUMNS} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq
    WHERE s.id = $1 AND v.version = ${version === undefined ? 's.version' : '$2'}`;
  return (await run<skillRows.SkillVersionRow>(db, sql, version === undefined ? [id] : [id, version])).rows[0];
}

export async function getSkill(db: Queryable, id: string, version?: string): Promise<Skill | null> {
  const row = await versionRow(db, id, version);
  if (!row) return null;
  const files = await run<skillRows.SkillFileRow>(
    db,
    `SELECT ${skillRows.SKILL_FILE_COLUMNS} FROM skill_files WHERE version_seq = $1 ORDER BY path`,
    [row.version_seq],
  );
  return skillRows.toSkill(row, files.rows, rows.postgresDecode);
}

export async function hostSkills(db: Queryable, ids: readonly string[]): Promise<HostSkill[]> {
  if (ids.length === 0) return [];
  const found = await run<skillRows.HostSkillRow>(
    db,
    `SELECT ${skillRows.HOST_SKILL_COLUMNS} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq AND v.version = s.version
     WHERE s.id = ANY($1::text[])`,
    [ids],
  );
  if (found.rows.length === 0) return [];
  const files = await run<skillRows.SkillFileRow & { version_seq: string }>(
    db,
    `SELECT version_seq, ${skillRows.SKILL_FILE_COLUMNS} FROM skill_files WHERE version_seq = ANY($1::bigint[]) ORDER BY version_seq, path`,
    [found.rows.map((row) => row.version_seq)],
  );
  return skillRows.toHostSkills(found.rows, files.rows);
}

export async function listVersions(db: Queryable, id: string): Promise<SkillVersionSummary[] | null> {
  const [skill] = (await run<{ seq: string }>(db, 'SELECT seq FROM skills WHERE id = $1', [id])).rows;
  if (!skill) return null;
  const versions = await run<skillRows.VersionSummaryRow>(
    db,
    `SELECT ${skillRows.VERSION_SUMMARY_COLUMNS} FROM skill_versions v WHERE v.skill_seq = $1`,
    [skill.seq],
  );
  return versions.rows.map((v) => skillRows.toVersionSummary(v, rows.postgresDecode));
}

export async function getFile(db: Queryable, id: string, version: string | null, path: string): Promise<SkillFileContent | null> {
  const row = await versionRow(db, id, version ?? undefined);
  if (!row) return null;
  if (path === 'SKILL.md') {
    const content = Buffer.from(row.skill_md_content, 'utf8');
    return { version: row.version, content, size: content.length, digest: '', mediaType: 'text/markdown; charset=utf-8' };
  }
  const [file] = (
    await run<{ content: Buffer; size: number; digest: string; media_type: string }>(
      db,
      'SELECT content, size, digest, media_type FROM skill_files WHERE version_seq = $1 AND path = $2',
      [row.version_seq, path],
    )
  ).rows;
  return file ? { version: row.version, content: file.content, size: file.size, digest: file.digest, mediaType: file.media_type } : null;
}

export async function getBundle(db: Queryable, id: string, version: string): Promise<SkillBundle | null> {
  const row = await versionRow(db, id, version);
  if (!row) return null;
  const files = await run<{ path: string; content: Buffer }>(db, 'SELECT path, content FROM skill_files WHERE version_seq = $1 ORDER BY path', [
    row.version_seq,
  ]);
  return { version: row.version, skillMd: row.skill_md_content, files: files.rows };
}

// ---- discovery index and export --------------------------------------------------------------------

const BATCH = 500;
const EXPORT_SKILLS_BATCH = 8;

export async function* discoveryIndex(db: Queryable): AsyncGenerator<DiscoveryEntry> {
  let after = '0';
  for (;;) {
    const batch = (
      await run<{ seq: string; id: string; name: string; description: string; version: string; digest: string; file_count: number }>(
        db,
        `SELECT seq, id, name, description, version, digest, file_count FROM skills
         WHERE visibility = 'public' AND latest_version_seq IS NOT NULL AND seq > $1 ORDER BY seq LIMIT $2`,
        [after, BATCH],
      )
    ).rows;
    for (const s of batch) yield { id: s.id, name: s.name, description: s.description, version: s.version, digest: s.digest, fileCount: s.file_count };
    if (batch.length < BATCH) return;
    after = batch[batch.length - 1]!.seq;
  }
}

/** Every skill of an agent with every version and its files, a few skills per read. */
export async function* exportSkills(db: Queryable, agentId: string): AsyncGenerator<SkillExport> {
  let after = '0';
  for (;;) {
    const batch = (
      await run<skillRows.SkillExportRow & { seq: string }>(
        db,
        `SELECT seq, id, name, visibility, created_at, updated_at, CASE WHEN latest_version_seq IS NULL THEN NULL ELSE version END AS latest
         FROM skills WHERE agent_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [agentId, after, EXPORT_SKILLS_BATCH],
      )
    ).rows;
    for (const s of batch) {
      const versions = (await run<{ version: string }>(db, 'SELECT version FROM skill_versions WHERE skill_seq = $1 ORDER BY seq', [s.seq])).rows;
      const exported: SkillExport['versions'] = [];
      for (const { version } of versions) {
        const view = await getSkill(db, s.id, version);
        const bundle = await getBundle(db, s.id, version);
        if (view && bundle) exported.push(skillRows.exportedVersion(view, bundle));
      }
      yield skillRows.toSkillExport(s, exported);
    }
    if (batch.length < EXPORT_SKILLS_BATCH) return;
    after = batch[batch.length - 1]!.seq;
  }
}
