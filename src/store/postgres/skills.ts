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
import { lockAgent, reserveStorage, reward, takeBack } from './writes.js';

const INSERT_VERSION = `INSERT INTO skill_versions (${skillRows.VERSION_INSERT_COLUMNS.join(', ')})
  VALUES (${skillRows.VERSION_INSERT_COLUMNS.map((column, i) => `$${i + 1}${column === 'tags' || column === 'warnings' ? '::jsonb' : ''}`).join(', ')})
  RETURNING seq`;

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
  let skill: SkillRef;
  if (plan.kind === 'create') {
    const usage = { units: 0, skills: 1, bytes };
    try {
      const inserted = await run<{ seq: string }>(
        client,
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score, created_at, updated_at, bytes)
         VALUES ($1, $2, $3, '', NULL, '[]'::jsonb, NULL, $4, 0, $5, $5, 0) RETURNING seq`,
        [plan.skillId, plan.agentId, plan.name, plan.visibility, at],
      );
      skill = { seq: inserted.rows[0]!.seq, agent_id: plan.agentId, visibility: plan.visibility };
    } catch (error) {
      if (uniqueViolation(error) !== null) throw new PublishRaceError();
      throw error;
    }
    const rewarded = {
      agentId: plan.agentId,
      targetId: plan.skillId,
      at,
      isPrivate: plan.visibility === 'private',
      usage,
    };
    await reward(client, [rewarded], 'contribute_skill', plan.rewardMillis, quota);
  } else {
    await lockAgent(client, plan.agentId);
    const [found] = (
      await run<SkillRef>(
        client,
        'SELECT seq, agent_id, visibility FROM skills WHERE id = $1 AND agent_id = $2 FOR UPDATE',
        [plan.skillId, plan.agentId],
      )
    ).rows;
    if (!found) throw new PublishRaceError();
    skill = found;
    if (plan.maxVersions !== null) {
      const [held] = (
        await run<{ n: string }>(client, 'SELECT count(*) AS n FROM skill_versions WHERE skill_seq = $1', [found.seq])
      ).rows;
      if (Number(held!.n) >= plan.maxVersions) throw new VersionLimitError(plan.maxVersions);
    }
    const usage = { units: 0, skills: 0, bytes };
    if (quota) await reserveStorage(client, plan.agentId, quota, usage);
    await run(client, 'UPDATE agents SET stored_bytes = stored_bytes + $2 WHERE agent_id = $1', [plan.agentId, bytes]);
    // Visibility belongs to the skill: a plan made before it changed is planned again (and refused).
    if (found.visibility !== plan.visibility) throw new PublishRaceError();
  }
  let versionSeq: string;
  try {
    const inserted = await run<{ seq: string }>(
      client,
      INSERT_VERSION,
      skillRows.versionValues(skill.seq, plan.version, (b) => b),
    );
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
      [
        versionSeq,
        files.map((f) => f.path),
        files.map((f) => Buffer.from(f.content)),
        files.map((f) => f.size),
        files.map((f) => f.digest),
        files.map((f) => f.mediaType),
      ],
    );
  }
  await run(client, 'UPDATE skills SET bytes = bytes + $2, updated_at = $3 WHERE seq = $1', [skill.seq, bytes, at]);
  await refreshDefault(client, skill.seq, at);
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
 * tags: the highest release that is not yanked, else the highest pre-release (the domain's latestVersion;
 * this order is tested against it), found through the versions' index. With every version yanked the row
 * shows the highest version and leaves lists and search (latest_version_seq NULL).
 */
async function refreshDefault(client: PoolClient, skillSeq: string, at: string): Promise<void> {
  const pick = async (condition: string) =>
    (
      await run<{ seq: string }>(
        client,
        `SELECT seq FROM skill_versions WHERE skill_seq = $1${condition} ORDER BY is_release DESC, sort_key DESC, seq DESC LIMIT 1`,
        [skillSeq],
      )
    ).rows[0]?.seq;
  const live = (await pick(' AND NOT yanked')) ?? null;
  const chosen = live ?? (await pick(''));
  if (chosen === undefined) return;
  await run(
    client,
    `UPDATE skills s SET version = v.version, latest_version_seq = $3, digest = v.digest, display_name = v.display_name,
       description = v.description, domain = v.domain, tags = v.tags, license = v.license, quality_score = v.quality_score,
       conformant = v.conformant, file_count = v.file_count,
       published_at = v.created_at, updated_at = $4
     FROM skill_versions v WHERE v.seq = $2 AND s.seq = $1`,
    [skillSeq, chosen, live, at],
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
