// Skills, read once for every backend: a skill by publisher and name (what a publication plans from), a
// version with its files, what agent hosts are served, the version list, one file or a version's bundle,
// the discovery index, lists and the newest skills. A skill row holds its default version's searchable
// fields; a version row holds one version whole; files hang off versions.
import type { Skill, SkillVersionSummary } from '../../domain/model.js';
import { versionSortKey, type VersionFacts } from '../../domain/versions.js';
import type { SkillSummary } from '../../domain/summaries.js';
import type { RecentSkillQuery } from '../recent-queries.js';
import * as hostRows from '../host-skill-rows.js';
import * as skillRows from '../skill-rows.js';
import { byDialect, oneOf, raw, rowsInSeqOrder, sql, where, type Db, type Sql } from '../sql.js';
import type { DiscoveryEntry, Page, SkillExport, SkillIdentity, SkillQuery, SkillStore, Viewer } from '../store.js';
import { keyset } from './exports.js';
import { conditionSql, SKILL_COLUMNS } from './filters.js';
import { visibleCondition } from '../../domain/access.js';

const ORDER = raw('s.quality_score DESC, s.created_at DESC, s.id DESC');
const SUMMARY = raw(skillRows.SKILL_SUMMARY_COLUMNS);
/**
 * The skill that holds its name (not a legacy duplicate), written as the identity index's own condition:
 * neither database uses a partial index for a bound parameter, and then looks through every skill of the
 * publisher instead.
 */
const HOLDS_NAME = byDialect({ sqlite: raw('legacy_duplicate = 0'), postgres: raw('NOT legacy_duplicate') });

/** Which skills a viewer may see (the domain's visibility rule, as SQL). */
function visibleTo(viewer: Viewer): Sql[] {
  const condition = visibleCondition(viewer);
  return condition === null ? [] : [conditionSql(condition, SKILL_COLUMNS)];
}

export type SkillReads = Omit<
  SkillStore,
  'publishSkill' | 'setSkillYanked' | 'setSkillVisibility' | 'deleteSkill' | 'importSkills'
>;

export function skillReads(
  db: Db,
): SkillReads & { exportedVersions(skillSeq: number | string): Promise<SkillExport['versions']> } {
  const summary = (row: skillRows.SkillSummaryRow) => skillRows.toSkillSummary(row, db.decode);

  /** The version row a read means: the one named, else the skill's default (the newest when all are yanked). */
  const versionRow = (id: string, version: string | undefined) =>
    db.get<skillRows.SkillVersionRow>(
      sql`SELECT ${raw(skillRows.SKILL_VERSION_COLUMNS)} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq
        WHERE s.id = ${id} AND v.version = ${version === undefined ? raw('s.version') : version}`,
    );

  async function getSkill(id: string, version?: string): Promise<Skill | null> {
    const row = await versionRow(id, version);
    if (!row) return null;
    const files = await db.all<skillRows.SkillFileRow>(
      sql`SELECT ${raw(skillRows.SKILL_FILE_COLUMNS)} FROM skill_files WHERE version_seq = ${row.version_seq} ORDER BY path`,
    );
    return skillRows.toSkill(row, files, db.decode);
  }

  async function getSkillBundle(id: string, version: string) {
    const row = await versionRow(id, version);
    if (!row) return null;
    const files = await db.all<{ path: string; content: Uint8Array }>(
      sql`SELECT path, content FROM skill_files WHERE version_seq = ${row.version_seq} ORDER BY path`,
    );
    return { version: row.version, skillMd: row.skill_md_content, files };
  }

  return {
    getSkill,
    getSkillBundle,

    /** Every version of a skill, oldest first, with its files' content: two queries, however many versions. */
    async exportedVersions(skillSeq) {
      const versions = await db.all<skillRows.SkillVersionRow>(
        sql`SELECT ${raw(skillRows.SKILL_VERSION_COLUMNS)} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq
          WHERE s.seq = ${skillSeq} ORDER BY v.seq`,
      );
      const files = await db.all<skillRows.SkillFileRow & { version_seq: number | string; content: Uint8Array }>(
        sql`SELECT f.version_seq, ${raw(skillRows.SKILL_FILE_COLUMNS.replace(/(\w+)/g, 'f.$1'))}, f.content FROM skill_files f
          JOIN skill_versions v ON v.seq = f.version_seq WHERE v.skill_seq = ${skillSeq} ORDER BY f.version_seq, f.path`,
      );
      return versions.map((row) => {
        const own = files.filter((f) => Number(f.version_seq) === Number(row.version_seq));
        return skillRows.exportedVersion(skillRows.toSkill(row, own, db.decode), {
          version: row.version,
          skillMd: row.skill_md_content,
          files: own,
        });
      });
    },

    async findSkillByName(agentId, name): Promise<SkillIdentity | null> {
      const skill = await db.get<{ id: string; visibility: string }>(
        sql`SELECT id, visibility FROM skills WHERE agent_id = ${agentId} AND name = ${name} AND ${HOLDS_NAME}`,
      );
      return skill ? { skillId: skill.id, visibility: skill.visibility as SkillIdentity['visibility'] } : null;
    },

    /** What a publication decides from: three lookups through the versions' indexes in one statement, whatever their number. */
    async skillVersionFacts(id, digest, requested): Promise<VersionFacts> {
      // One statement, so the three facts come from one snapshot: read apart, a version committed between
      // the reads could be missed by the first and counted by the last (the same content then published
      // again under the next number).
      const found = await db.get<{ same: string | null; taken: number | null; highest: string | null }>(
        sql`SELECT
          (SELECT version FROM skill_versions v WHERE v.skill_seq = s.seq AND v.digest = ${digest} LIMIT 1) AS same,
          (SELECT 1 FROM skill_versions v WHERE v.skill_seq = s.seq AND v.sort_key = ${
            requested === null ? null : versionSortKey(requested)
          } LIMIT 1) AS taken,
          (SELECT version FROM skill_versions v WHERE v.skill_seq = s.seq ORDER BY v.sort_key DESC, v.seq DESC LIMIT 1) AS highest
        FROM skills s WHERE s.id = ${id}`,
      );
      return {
        same: found?.same ?? null,
        taken: found?.taken !== null && found?.taken !== undefined,
        highest: found?.highest ?? null,
      };
    },

    async hostSkills(ids) {
      if (ids.length === 0) return [];
      const found = await db.all<hostRows.HostSkillRow>(
        sql`SELECT ${raw(hostRows.HOST_SKILL_COLUMNS)} FROM skills s JOIN skill_versions v ON v.skill_seq = s.seq AND v.version = s.version
          WHERE ${oneOf(raw('s.id'), ids, 'text')}`,
      );
      if (found.length === 0) return [];
      const files = await db.all<skillRows.SkillFileRow & { version_seq: number | string }>(
        sql`SELECT version_seq, ${raw(skillRows.SKILL_FILE_COLUMNS)} FROM skill_files
          WHERE ${oneOf(
            raw('version_seq'),
            found.map((row) => row.version_seq),
            'bigint',
          )} ORDER BY version_seq, path`,
      );
      return hostRows.toHostSkills(found, files);
    },

    /** A page of a skill's versions, newest first by semver precedence (its index gives the order). */
    listSkillVersions: (id, page, withHeld = true): Promise<Page<SkillVersionSummary> | null> =>
      db.snapshot(async (db) => {
        const shown = withHeld ? raw('') : raw(' AND v.held_at IS NULL');
        const skill = await db.get<{ seq: number | string; versions: number | string }>(
          sql`SELECT s.seq, (SELECT count(*) FROM skill_versions v WHERE v.skill_seq = s.seq${shown}) AS versions FROM skills s WHERE s.id = ${id}`,
        );
        if (!skill) return null;
        const found = await db.all<skillRows.VersionSummaryRow>(
          sql`SELECT ${raw(skillRows.VERSION_SUMMARY_COLUMNS)} FROM skill_versions v WHERE v.skill_seq = ${skill.seq}${shown}
            ORDER BY v.sort_key DESC, v.seq DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
        );
        return { items: found.map((v) => skillRows.toVersionSummary(v, db.decode)), total: Number(skill.versions) };
      }),

    async getSkillFile(id, version, path) {
      const row = await versionRow(id, version ?? undefined);
      if (!row) return null;
      if (path === 'SKILL.md') {
        const content = Buffer.from(row.skill_md_content, 'utf8');
        return {
          version: row.version,
          content,
          size: content.length,
          digest: '',
          mediaType: 'text/markdown; charset=utf-8',
        };
      }
      const file = await db.get<{ content: Uint8Array; size: number | string; digest: string; media_type: string }>(
        sql`SELECT content, size, digest, media_type FROM skill_files WHERE version_seq = ${row.version_seq} AND path = ${path}`,
      );
      return file
        ? {
            version: row.version,
            content: file.content,
            size: Number(file.size),
            digest: file.digest,
            mediaType: file.media_type,
          }
        : null;
    },

    discoveryIndex: (): AsyncIterable<DiscoveryEntry> =>
      keyset(
        db,
        (after, size) => sql`SELECT seq, id, name, description, version, digest, file_count FROM skills
          WHERE visibility = 'public' AND latest_version_seq IS NOT NULL AND held_at IS NULL AND seq > ${after} ORDER BY seq LIMIT ${size}`,
        (s: {
          seq: number | string;
          id: string;
          name: string;
          description: string;
          version: string;
          digest: string;
          file_count: number;
        }) => ({
          id: s.id,
          name: s.name,
          description: s.description,
          version: s.version,
          digest: s.digest,
          fileCount: Number(s.file_count),
        }),
      ),

    /** One entry per skill at its default version; a skill whose versions are all yanked is not listed. */
    listSkills: (query: SkillQuery): Promise<Page<SkillSummary>> =>
      db.snapshot(async (db) => {
        const from = sql`FROM skills s WHERE ${conditionSql(query.condition, SKILL_COLUMNS)}`;
        const total = Number(
          (await db.get<{ total: number | string }>(sql`SELECT count(*) AS total ${from}`, { adHoc: true }))!.total,
        );
        if (total <= query.offset) return { items: [], total };
        const found = await db.all<skillRows.SkillSummaryRow>(
          sql`SELECT ${SUMMARY} ${from} ORDER BY ${ORDER} LIMIT ${query.limit} OFFSET ${query.offset}`,
          { adHoc: true },
        );
        return { items: found.map(summary), total };
      }),

    /** Newest first by first publication (the row's seq), so the key gives the order and the cost follows the page. */
    async recentSkills(query: RecentSkillQuery): Promise<SkillSummary[]> {
      const conditions = [sql`s.latest_version_seq IS NOT NULL`, ...visibleTo(query.viewer)];
      if (query.agentId !== undefined) conditions.push(sql`s.agent_id = ${query.agentId}`);
      const found = await db.all<skillRows.SkillSummaryRow>(
        sql`SELECT ${SUMMARY} FROM skills s ${where(conditions)} ORDER BY s.seq DESC LIMIT ${query.limit}`,
      );
      return found.map(summary);
    },

    /** Summaries in the order of `seqs` (sequences no longer there are left out). */
    skillSummariesBySeq(seqs) {
      return rowsInSeqOrder(db, sql`SELECT s.seq, ${SUMMARY} FROM skills s`, 's.seq', seqs, summary);
    },
    async admittedSkillSeqs(seqs, condition) {
      if (seqs.length === 0) return new Set();
      const found = await db.all<{ seq: number | string }>(
        sql`SELECT s.seq FROM skills s WHERE ${oneOf(raw('s.seq'), seqs, 'bigint')} AND ${conditionSql(condition, SKILL_COLUMNS)}`,
        { adHoc: true },
      );
      return new Set(found.map((row) => Number(row.seq)));
    },
  };
}
