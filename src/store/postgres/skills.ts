// Skills on PostgreSQL, mirrored by ../sqlite/skills.ts: publications (a new skill, a new version, or the
// same content again), the default version kept on the skill row (its search vector follows), yank,
// delete, and the reads of versions and files. Writes run inside the caller's transaction; a skill row
// is locked (FOR UPDATE) while a version is added or yanked, so concurrent publications queue.
import type { PoolClient } from 'pg';
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
import { run, type Queryable } from './connection.js';
import { uniqueViolation } from './errors.js';
import { reserveStorage, reward, takeBack } from './writes.js';

const INSERT_VERSION = `INSERT INTO skill_versions (${skillRows.VERSION_INSERT_COLUMNS.join(', ')})
  VALUES (${skillRows.VERSION_INSERT_COLUMNS.map((column, i) => `$${i + 1}${column === 'tags' || column === 'warnings' ? '::jsonb' : ''}`).join(', ')})
  RETURNING seq`;

interface SkillRef {
  seq: string;
  agent_id: string;
  visibility: string;
}

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

// ---- publication -----------------------------------------------------------------------------------

export async function publish(client: PoolClient, plan: SkillPlan, quota: StorageQuota | undefined): Promise<void> {
  const at = plan.version.publishedAt;
  if (plan.kind === 'same') {
    const held = await run(
      client,
      'SELECT 1 FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq WHERE s.id = $1 AND v.version = $2 AND v.digest = $3',
      [plan.skillId, plan.version.version, plan.version.digest],
    );
    if (held.rowCount !== 1) throw new PublishRaceError();
    return;
  }
  const bytes = skillRows.versionBytes(plan.version);
  let skill: SkillRef;
  if (plan.kind === 'create') {
    const usage = { units: 0, skills: 1, bytes };
    if (quota) await reserveStorage(client, plan.agentId, quota, usage);
    try {
      const inserted = await run<{ seq: string }>(
        client,
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score, skill_md_content, body,
           created_at, updated_at, bytes) VALUES ($1, $2, $3, '', NULL, '[]'::jsonb, NULL, $4, 0, '', '', $5, $5, 0) RETURNING seq`,
        [plan.skillId, plan.agentId, plan.name, plan.visibility, at],
      );
      skill = { seq: inserted.rows[0]!.seq, agent_id: plan.agentId, visibility: plan.visibility };
    } catch (error) {
      if (uniqueViolation(error) !== null) throw new PublishRaceError();
      throw error;
    }
    const rewarded = { agentId: plan.agentId, targetId: plan.skillId, at, isPrivate: plan.visibility === 'private', usage };
    await reward(client, [rewarded], 'contribute_skill', plan.rewardMillis);
  } else {
    const [found] = (
      await run<SkillRef>(client, 'SELECT seq, agent_id, visibility FROM skills WHERE id = $1 AND agent_id = $2 FOR UPDATE', [
        plan.skillId,
        plan.agentId,
      ])
    ).rows;
    if (!found) throw new PublishRaceError();
    skill = found;
    const usage = { units: 0, skills: 0, bytes };
    if (quota) await reserveStorage(client, plan.agentId, quota, usage);
    await run(client, 'UPDATE agents SET stored_bytes = stored_bytes + $2 WHERE agent_id = $1', [plan.agentId, bytes]);
    if (found.visibility !== plan.visibility) await setVisibility(client, skill, plan);
  }
  let versionSeq: string;
  try {
    const inserted = await run<{ seq: string }>(client, INSERT_VERSION, skillRows.versionValues(skill.seq, plan.version, (b) => b));
    versionSeq = inserted.rows[0]!.seq;
  } catch (error) {
    if (uniqueViolation(error) !== null) throw new PublishRaceError();
    throw error;
  }
  const files = plan.version.files;
  if (files.length > 0) {
    await run(
      client,
      `INSERT INTO skill_files (version_seq, path, content, size, digest, media_type)
       SELECT $1, t.path, t.content, t.size, t.digest, t.media_type
       FROM unnest($2::text[], $3::bytea[], $4::int[], $5::text[], $6::text[]) AS t(path, content, size, digest, media_type)`,
      [versionSeq, files.map((f) => f.path), files.map((f) => Buffer.from(f.content)), files.map((f) => f.size), files.map((f) => f.digest), files.map((f) => f.mediaType)],
    );
  }
  await run(client, 'UPDATE skills SET bytes = bytes + $2, updated_at = $3 WHERE seq = $1', [skill.seq, bytes, at]);
  await refreshDefault(client, skill.seq, plan.pickLatest, at);
}

/** A new version may change who sees the skill; its history items follow (public profiles hide private ones). */
async function setVisibility(client: PoolClient, skill: SkillRef, plan: SkillPlan): Promise<void> {
  await run(client, 'UPDATE skills SET visibility = $2 WHERE seq = $1', [skill.seq, plan.visibility]);
  await run(client, 'UPDATE reputation_events SET private = $3 WHERE agent_id = $1 AND target_id = $2', [
    plan.agentId,
    plan.skillId,
    plan.visibility === 'private',
  ]);
}

/**
 * Points the skill at the version `pickLatest` chooses, copying that version's searchable fields (its
 * body included: the search vector is generated from the row) and re-indexing its tags. With every
 * version yanked the row shows the newest version and leaves lists and search (latest_version_seq NULL).
 */
async function refreshDefault(client: PoolClient, skillSeq: string, pickLatest: SkillPlan['pickLatest'], at: string): Promise<void> {
  const versions = (
    await run<{ seq: string; version: string; yanked: boolean }>(client, 'SELECT seq, version, yanked FROM skill_versions WHERE skill_seq = $1', [
      skillSeq,
    ])
  ).rows;
  const live = pickLatest(versions);
  const shown = live ?? pickLatest(versions.map((v) => ({ ...v, yanked: false })));
  const chosen = versions.find((v) => v.version === shown);
  if (!chosen) return;
  await run(
    client,
    `UPDATE skills s SET version = v.version, latest_version_seq = $3, digest = v.digest, display_name = v.display_name,
       description = v.description, domain = v.domain, tags = v.tags, license = v.license, quality_score = v.quality_score,
       conformant = v.conformant, skill_md_content = v.skill_md_content, body = v.body, file_count = v.file_count,
       published_at = v.created_at, updated_at = $4
     FROM skill_versions v WHERE v.seq = $2 AND s.seq = $1`,
    [skillSeq, chosen.seq, live === null ? null : chosen.seq, at],
  );
  await run(client, 'DELETE FROM skill_tags WHERE skill_seq = $1', [skillSeq]);
  await run(
    client,
    `INSERT INTO skill_tags (tag, skill_seq) SELECT DISTINCT lower(t), $1::bigint FROM skills, jsonb_array_elements_text(skills.tags) AS t
     WHERE skills.seq = $1`,
    [skillSeq],
  );
}

// ---- yank and delete -------------------------------------------------------------------------------

export async function setYanked(
  client: PoolClient,
  id: string,
  version: string,
  yanked: boolean,
  at: string,
  pickLatest: SkillPlan['pickLatest'],
): Promise<'changed' | 'unchanged' | 'not_found'> {
  const [skill] = (await run<{ seq: string }>(client, 'SELECT seq FROM skills WHERE id = $1 FOR UPDATE', [id])).rows;
  if (!skill) return 'not_found';
  const [row] = (
    await run<{ seq: string; yanked: boolean }>(client, 'SELECT seq, yanked FROM skill_versions WHERE skill_seq = $1 AND version = $2', [
      skill.seq,
      version,
    ])
  ).rows;
  if (!row) return 'not_found';
  if (row.yanked === yanked) return 'unchanged';
  await run(client, 'UPDATE skill_versions SET yanked = $2, yanked_at = $3 WHERE seq = $1', [row.seq, yanked, yanked ? at : null]);
  await refreshDefault(client, skill.seq, pickLatest, at);
  return 'changed';
}

/** Deletes the skill (versions, files and tags go by ON DELETE CASCADE) and takes its reward back. */
export async function deleteSkill(client: PoolClient, id: string, at: string): Promise<boolean> {
  const [skill] = (
    await run<SkillRef & { bytes: string }>(client, 'DELETE FROM skills WHERE id = $1 RETURNING seq, agent_id, visibility, bytes', [id])
  ).rows;
  if (!skill) return false;
  await takeBack(client, skill.agent_id, 'contribute_skill', id, at, skill.visibility === 'private', {
    units: 0,
    skills: -1,
    bytes: -Number(skill.bytes),
  });
  return true;
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
      await run<{ seq: string; id: string; name: string; visibility: string; created_at: string; updated_at: string; latest: string | null }>(
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
        if (!view || !bundle) continue;
        const contents = new Map(bundle.files.map((f) => [f.path, f.content]));
        const { files, ...rest } = view;
        exported.push({ ...rest, files: files.map((f) => ({ ...f, content_base64: Buffer.from(contents.get(f.path)!).toString('base64') })) });
      }
      yield {
        id: s.id,
        name: s.name,
        visibility: s.visibility as SkillExport['visibility'],
        created_at: s.created_at,
        updated_at: s.updated_at,
        latest_version: s.latest,
        versions: exported,
      };
    }
    if (batch.length < EXPORT_SKILLS_BATCH) return;
    after = batch[batch.length - 1]!.seq;
  }
}
