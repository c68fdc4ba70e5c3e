// Skills on PostgreSQL, mirrored by ../sqlite/skills.ts: publications (a new skill, a new version, or the
// same content again), the default version kept on the skill row (with its tags), yank and
// delete; the reads are every backend's (../reads/skills.ts). Writes run inside the caller's transaction. Locks
// are taken in one order, the publisher's agent row first, then the skill row (FOR UPDATE), so that
// publications and deletions of one skill queue instead of deadlocking.
import type { PoolClient } from 'pg';
import type { Visibility } from '../../domain/model.js';
import * as skillRows from '../skill-rows.js';
import { PublishRaceError, VersionLimitError, type SkillPlan, type StorageQuota } from '../store.js';
import { run } from './connection.js';
import { uniqueViolation } from './errors.js';
import { checkQuota } from '../quota.js';
import { withWrites, type Statement } from './statements.js';
import { lockAgent, reward, takeBack } from './writes.js';

const INSERT_VERSION = `INSERT INTO skill_versions (${skillRows.VERSION_INSERT_COLUMNS.join(', ')})
  VALUES (${skillRows.VERSION_INSERT_COLUMNS.map((column, i) => `$${i + 1}${column === 'tags' || column === 'warnings' || column === 'findings' ? '::jsonb' : ''}`).join(', ')})
  RETURNING seq`;

const INSERT_SKILL = `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score, created_at, updated_at, bytes)
  VALUES ($1, $2, $3, '', NULL, '[]'::jsonb, NULL, $4, 0, $5, $5, 0) RETURNING seq`;

/** A version's files, after the version's row (the part named `version` of the same statement). */
const INSERT_FILES = `INSERT INTO skill_files (version_seq, path, content, size, digest, media_type)
  SELECT (SELECT seq FROM version), t.path, t.content, t.size, t.digest, t.media_type
  FROM unnest($1::text[], $2::bytea[], $3::int[], $4::text[], $5::text[]) AS t(path, content, size, digest, media_type)`;

const ADD_STORED_BYTES = 'UPDATE agents SET stored_bytes = stored_bytes + $2 WHERE agent_id = $1';

/** The publisher's storage, its row locked: publications of one agent queue here, before the skill's row. */
const LOCK_PUBLISHER = 'SELECT unit_count, skill_count, stored_bytes FROM agents WHERE agent_id = $1 FOR UPDATE';

/** The skill's row, locked, with how many versions it holds. */
const LOCK_SKILL = `SELECT s.seq, s.agent_id, s.visibility, (SELECT count(*) FROM skill_versions v WHERE v.skill_seq = s.seq) AS versions
  FROM skills s WHERE s.id = $1 AND s.agent_id = $2 FOR UPDATE OF s`;

interface SkillRef {
  seq: string;
  agent_id: string;
  visibility: string;
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
  let skillSeq: string;
  if (plan.kind === 'create') {
    skillSeq = (
      await raced(() =>
        run<{ seq: string }>(client, INSERT_SKILL, [plan.skillId, plan.agentId, plan.name, plan.visibility, at]),
      )
    ).rows[0]!.seq;
    const rewarded = {
      agentId: plan.agentId,
      targetId: plan.skillId,
      at,
      isPrivate: plan.visibility === 'private',
      usage: { units: 0, skills: 1, bytes },
    };
    // The version, its files, the reward and the agent's totals: one statement, the quota checked on the totals.
    const version = versionWrites(skillSeq, plan);
    await raced(() => reward(client, [rewarded], 'contribute_skill', plan.rewardMillis, quota, version));
  } else {
    const [used] = (
      await run<{ unit_count: number; skill_count: number; stored_bytes: string }>(client, LOCK_PUBLISHER, [
        plan.agentId,
      ])
    ).rows;
    const [found] = (await run<SkillRef & { versions: string }>(client, LOCK_SKILL, [plan.skillId, plan.agentId])).rows;
    if (!used || !found) throw new PublishRaceError();
    // Visibility belongs to the skill: a plan made before it changed is planned again (and refused).
    if (found.visibility !== plan.visibility) throw new PublishRaceError();
    if (plan.maxVersions !== null && Number(found.versions) >= plan.maxVersions)
      throw new VersionLimitError(plan.maxVersions);
    if (quota)
      checkQuota(quota, used.unit_count, used.skill_count, Number(used.stored_bytes) + bytes, {
        units: 0,
        skills: 0,
        bytes,
      });
    skillSeq = found.seq;
    // The version, its files and the publisher's storage: one statement.
    const statement = withWrites(versionWrites(skillSeq, plan), {
      text: ADD_STORED_BYTES,
      values: [plan.agentId, bytes],
    });
    await raced(() => run(client, statement.text, statement.values));
  }
  await refreshDefault(client, skillSeq, at, bytes);
}

/** A unique violation while a publication is written: another publication of the same skill came first. */
async function raced<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error) !== null) throw new PublishRaceError();
    throw error;
  }
}

/** The version's row (named `version`, returning its seq) and its files', as parts of one statement. */
function versionWrites(skillSeq: string, plan: SkillPlan): (Statement & { name: string })[] {
  const version = {
    name: 'version',
    text: INSERT_VERSION,
    values: skillRows.versionValues(skillSeq, plan.version, (b) => b),
  };
  const files = plan.version.files;
  if (files.length === 0) return [version];
  return [
    version,
    {
      name: 'files',
      text: INSERT_FILES,
      values: [
        files.map((f) => f.path),
        files.map((f) => Buffer.from(f.content)),
        files.map((f) => f.size),
        files.map((f) => f.digest),
        files.map((f) => f.mediaType),
      ],
    },
  ];
}

/** Who sees a skill (every version of it); its history items follow (public profiles hide private ones). */
export async function setVisibility(
  client: PoolClient,
  id: string,
  visibility: Visibility,
  at: string,
): Promise<'changed' | 'unchanged' | 'not_found'> {
  const [skill] = (
    await run<SkillRef>(client, 'SELECT seq, agent_id, visibility FROM skills WHERE id = $1 FOR UPDATE', [id])
  ).rows;
  if (!skill) return 'not_found';
  if (skill.visibility === visibility) return 'unchanged';
  await run(client, 'UPDATE skills SET visibility = $2, updated_at = $3 WHERE seq = $1', [skill.seq, visibility, at]);
  await run(client, 'UPDATE reputation_events SET private = $3 WHERE agent_id = $1 AND target_id = $2', [
    skill.agent_id,
    id,
    visibility === 'private',
  ]);
  return 'changed';
}

/**
 * Points the skill at its default version, copying that version's searchable fields and re-indexing its
 * tags, and adds `bytes` to its size, in one statement: the default is the highest release that is not
 * yanked, else the highest pre-release (the domain's latestVersion; this order is tested against it),
 * found through the versions' index. A held version is never the default. With every version yanked the
 * row shows the highest version that is not held (the highest of all when every one is, version_held) and
 * leaves lists and search (latest_version_seq NULL). Tags the new default no longer has are deleted and
 * those it gains added; the statement's parts share one snapshot, so none deletes a row another inserts.
 */
const REFRESH_DEFAULT = `
WITH pick AS (
  SELECT (SELECT seq FROM skill_versions WHERE skill_seq = $1 AND NOT yanked AND held_at IS NULL ORDER BY is_release DESC, sort_key DESC, seq DESC LIMIT 1) AS live,
         (SELECT seq FROM skill_versions WHERE skill_seq = $1 AND held_at IS NULL ORDER BY is_release DESC, sort_key DESC, seq DESC LIMIT 1) AS shown,
         (SELECT seq FROM skill_versions WHERE skill_seq = $1 ORDER BY is_release DESC, sort_key DESC, seq DESC LIMIT 1) AS top
),
moved AS (
  UPDATE skills s SET version = v.version, latest_version_seq = pick.live, digest = v.digest, display_name = v.display_name,
    description = v.description, domain = v.domain, tags = v.tags, license = v.license, quality_score = v.quality_score,
    conformant = v.conformant, file_count = v.file_count, published_at = v.created_at, updated_at = $2, bytes = s.bytes + $3,
    version_held = v.held_at IS NOT NULL, verdict = v.verdict, findings_count = v.findings_count
  FROM pick, skill_versions v WHERE v.seq = coalesce(pick.live, pick.shown, pick.top) AND s.seq = $1
  RETURNING s.tags
),
tagged AS (SELECT DISTINCT lower(t) AS tag FROM moved, jsonb_array_elements_text(moved.tags) AS t),
dropped AS (
  DELETE FROM skill_tags WHERE skill_seq = $1 AND EXISTS (SELECT 1 FROM moved) AND tag NOT IN (SELECT tag FROM tagged)
)
INSERT INTO skill_tags (tag, skill_seq) SELECT tag, $1::bigint FROM tagged ON CONFLICT DO NOTHING`;

export async function refreshDefault(client: PoolClient, skillSeq: string, at: string, bytes = 0): Promise<void> {
  await run(client, REFRESH_DEFAULT, [skillSeq, at, bytes]);
}

// ---- yank and delete -------------------------------------------------------------------------------

export async function setYanked(
  client: PoolClient,
  id: string,
  version: string,
  yanked: boolean,
  at: string,
): Promise<'changed' | 'unchanged' | 'not_found'> {
  const [skill] = (await run<{ seq: string }>(client, 'SELECT seq FROM skills WHERE id = $1 FOR UPDATE', [id])).rows;
  if (!skill) return 'not_found';
  const [row] = (
    await run<{ seq: string; yanked: boolean }>(
      client,
      'SELECT seq, yanked FROM skill_versions WHERE skill_seq = $1 AND version = $2',
      [skill.seq, version],
    )
  ).rows;
  if (!row) return 'not_found';
  if (row.yanked === yanked) return 'unchanged';
  await run(client, 'UPDATE skill_versions SET yanked = $2, yanked_at = $3 WHERE seq = $1', [
    row.seq,
    yanked,
    yanked ? at : null,
  ]);
  await refreshDefault(client, skill.seq, at);
  return 'changed';
}

/** Deletes the skill (versions, files and tags go by ON DELETE CASCADE) and takes its reward back. */
export async function deleteSkill(client: PoolClient, id: string, at: string): Promise<boolean> {
  const [owner] = (await run<{ agent_id: string }>(client, 'SELECT agent_id FROM skills WHERE id = $1', [id])).rows;
  if (!owner) return false;
  await lockAgent(client, owner.agent_id);
  const [skill] = (
    await run<SkillRef & { bytes: string }>(
      client,
      'DELETE FROM skills WHERE id = $1 RETURNING seq, agent_id, visibility, bytes',
      [id],
    )
  ).rows;
  if (!skill) return false;
  await takeBack(client, skill.agent_id, 'contribute_skill', id, at, skill.visibility === 'private', {
    units: 0,
    skills: -1,
    bytes: -Number(skill.bytes),
  });
  return true;
}
