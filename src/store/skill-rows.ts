// Skill rows as both backends return them, and their mapping to the domain's objects. A skill row is
// the skill and its default version's searchable fields (what lists, filters and search read); a
// version row holds one version in full; files hang off versions. What MCP hosts are served of a skill:
// host-skill-rows.ts.
import type { Security, Skill, SkillFile, SkillVersionSummary, SkillWarning, Visibility } from '../domain/model.js';
import type { SkillSummary } from '../domain/summaries.js';
import { holdOf, securityOf, securityValues, type Decode, type TrustRow } from './rows.js';
import type { NewSkillVersion, SkillBundle, SkillExport, SkillPlan } from './store.js';

/** The skill row's columns, as lists read them (a summary: no SKILL.md). */
export const SKILL_SUMMARY_COLUMNS = `s.id, s.agent_id, s.name, s.display_name, s.description, s.domain, s.tags, s.license,
  s.visibility, s.quality_score, s.version, s.latest_version_seq, s.conformant, s.file_count, s.created_at,
  s.updated_at, s.published_at, s.held_reason, s.held_by, s.held_at, s.verdict, s.findings_count,
  ${['held_reason', 'held_by', 'held_at']
    .map(
      (c) =>
        `CASE WHEN s.version_held = true THEN (SELECT v.${c} FROM skill_versions v WHERE v.skill_seq = s.seq AND v.version = s.version) END AS version_${c}`,
    )
    .join(', ')}`;

export interface SkillSummaryRow {
  id: string;
  agent_id: string;
  name: string;
  display_name: string;
  description: string;
  domain: string | null;
  tags: unknown;
  license: string | null;
  visibility: string;
  quality_score: number;
  version: string;
  latest_version_seq: number | string | null;
  conformant: unknown;
  file_count: number;
  created_at: string;
  updated_at: string;
  published_at: string;
  held_reason: string | null;
  held_by: string | null;
  held_at: string | null;
  /** The hold of the version the row shows, when every version is held. */
  version_held_reason: string | null;
  version_held_by: string | null;
  version_held_at: string | null;
  verdict: string | null;
  findings_count: number | string | null;
}

/** A version row joined to its skill: `v.` columns of the version, the skill's identity from `s.`. */
export const SKILL_VERSION_COLUMNS = `s.id, s.agent_id, s.name, s.visibility, s.created_at, s.updated_at,
  CASE WHEN s.latest_version_seq IS NULL THEN NULL ELSE s.version END AS latest_version,
  v.seq AS version_seq, v.version, v.display_name, v.description, v.domain, v.tags, v.license, v.quality_score,
  v.conformant, v.warnings, v.digest, v.file_count, v.yanked, v.skill_md_content, v.created_at AS published_at,
  s.held_reason AS skill_held_reason, s.held_by AS skill_held_by, s.held_at AS skill_held_at,
  v.held_reason, v.held_by, v.held_at, v.verdict, v.findings, v.scanner, v.scanned_at`;

export interface SkillVersionRow extends TrustRow {
  id: string;
  agent_id: string;
  name: string;
  visibility: string;
  created_at: string;
  updated_at: string;
  latest_version: string | null;
  version_seq: number | string;
  version: string;
  display_name: string;
  description: string;
  domain: string | null;
  tags: unknown;
  license: string | null;
  quality_score: number;
  conformant: unknown;
  warnings: unknown;
  digest: string;
  file_count: number;
  yanked: unknown;
  skill_md_content: string;
  published_at: string;
  skill_held_reason: string | null;
  skill_held_by: string | null;
  skill_held_at: string | null;
}

export const SKILL_FILE_COLUMNS = 'path, size, digest, media_type';

export interface SkillFileRow {
  path: string;
  size: number | string;
  digest: string;
  media_type: string;
}

export const VERSION_SUMMARY_COLUMNS =
  'v.version, v.digest, v.yanked, v.description, v.conformant, v.file_count, v.created_at, v.held_reason, v.held_by, v.held_at, v.verdict, v.findings_count';

export interface VersionSummaryRow {
  held_reason: string | null;
  held_by: string | null;
  held_at: string | null;
  verdict: string | null;
  findings_count: number | string | null;
  version: string;
  digest: string;
  yanked: unknown;
  description: string;
  conformant: unknown;
  file_count: number;
  created_at: string;
}

/** The fields a skill row and a version row share, as the domain names them. */
function skillFields(row: SkillSummaryRow | SkillVersionRow, decode: Decode) {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    domain: row.domain,
    tags: decode.strings(row.tags),
    license: row.license,
    visibility: row.visibility as Visibility,
    agent_id: row.agent_id,
    quality_score: row.quality_score,
    version: row.version,
    file_count: Number(row.file_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
    published_at: row.published_at,
  };
}

/** A verdict in a list: the verdict and its findings' count (none before the version was scanned). */
function brief(row: { verdict: string | null; findings_count: number | string | null }) {
  return row.verdict === null
    ? {}
    : { security: { verdict: row.verdict as Security['verdict'], findings_count: Number(row.findings_count ?? 0) } };
}

export function toSkillSummary(row: SkillSummaryRow, decode: Decode): SkillSummary {
  // Held: the whole skill, or the version the row shows (then every version is).
  const held =
    holdOf(row) ??
    holdOf({ held_reason: row.version_held_reason, held_by: row.version_held_by, held_at: row.version_held_at });
  return {
    ...skillFields(row, decode),
    latest_version: row.latest_version_seq === null ? null : row.version,
    yanked: row.latest_version_seq === null,
    conformance: { conformant: decode.bool(row.conformant) },
    ...brief(row),
    ...(held ? { held } : {}),
  };
}

export function toSkill(row: SkillVersionRow, files: SkillFileRow[], decode: Decode): Skill {
  // Held: the whole skill (its hold first), or this version.
  const held =
    holdOf({ held_reason: row.skill_held_reason, held_by: row.skill_held_by, held_at: row.skill_held_at }) ??
    holdOf(row);
  const security = securityOf(row, decode);
  return {
    ...skillFields(row, decode),
    digest: row.digest,
    latest_version: row.latest_version,
    yanked: decode.bool(row.yanked),
    conformance: { conformant: decode.bool(row.conformant), warnings: decode.json(row.warnings) as SkillWarning[] },
    files: files.map(toSkillFile),
    skill_md_content: row.skill_md_content,
    ...(security ? { security } : {}),
    ...(held ? { held } : {}),
  };
}

export function toSkillFile(row: SkillFileRow): SkillFile {
  return { path: row.path, size: Number(row.size), digest: row.digest, media_type: row.media_type };
}

export function toVersionSummary(row: VersionSummaryRow, decode: Decode): SkillVersionSummary {
  const held = holdOf(row);
  return {
    version: row.version,
    digest: row.digest,
    yanked: decode.bool(row.yanked),
    description: row.description,
    conformant: decode.bool(row.conformant),
    file_count: row.file_count,
    published_at: row.created_at,
    ...brief(row),
    ...(held ? { held } : {}),
  };
}

/** The storage a version takes against its publisher's quota: its SKILL.md and files, in bytes. */
export function versionBytes(version: NewSkillVersion): number {
  return Buffer.byteLength(version.skillMd, 'utf8') + version.files.reduce((sum, file) => sum + file.size, 0);
}

export const VERSION_INSERT_COLUMNS = [
  'skill_seq',
  'version',
  'digest',
  'display_name',
  'description',
  'domain',
  'tags',
  'license',
  'quality_score',
  'conformant',
  'warnings',
  'skill_md_content',
  'body',
  'bytes',
  'file_count',
  'created_at',
  'skill_md_digest',
  'skill_md_bytes',
  'frontmatter',
  'sort_key',
  'is_release',
  'verdict',
  'findings',
  'findings_count',
  'scanner',
  'scanned_at',
] as const;

/** A version's insert values after its skill's seq, in VERSION_INSERT_COLUMNS order (arrays as JSON text). */
export function versionValues(skillSeq: number | string, v: NewSkillVersion, bool: (b: boolean) => unknown): unknown[] {
  return [
    skillSeq,
    v.version,
    v.digest,
    v.displayName,
    v.description,
    v.domain,
    JSON.stringify(v.tags),
    v.license,
    v.qualityScore,
    bool(v.conformant),
    JSON.stringify(v.warnings),
    v.skillMd,
    v.body,
    versionBytes(v),
    v.files.length,
    v.publishedAt,
    v.skillMdDigest,
    v.skillMdBytes,
    v.frontmatter,
    v.sortKey,
    bool(v.release),
    ...securityValues(v.security),
  ];
}

/** The plan's skill as a version view, the answer a publication gives (the store reads the same back). */
export function plannedSkill(
  plan: SkillPlan,
  created: { createdAt: string; updatedAt: string; latestVersion: string | null },
): Skill {
  const v = plan.version;
  return {
    id: plan.skillId,
    name: plan.name,
    display_name: v.displayName,
    description: v.description,
    domain: v.domain,
    tags: v.tags,
    license: v.license,
    visibility: plan.visibility,
    agent_id: plan.agentId,
    quality_score: v.qualityScore,
    version: v.version,
    latest_version: created.latestVersion,
    yanked: false,
    digest: v.digest,
    file_count: v.files.length,
    created_at: created.createdAt,
    updated_at: created.updatedAt,
    published_at: v.publishedAt,
    conformance: { conformant: v.conformant, warnings: v.warnings },
    files: v.files.map((f) => ({ path: f.path, size: f.size, digest: f.digest, media_type: f.mediaType })),
    skill_md_content: v.skillMd,
    ...(v.security ? { security: v.security } : {}),
    ...(plan.hold ? { held: { reason: plan.hold.reason, by: plan.hold.by, at: plan.hold.at } } : {}),
  };
}

/** A skill row as the export reads it (`latest`: the latest version, null when every version is yanked). */
export interface SkillExportRow {
  id: string;
  name: string;
  visibility: string;
  created_at: string;
  updated_at: string;
  latest: string | null;
}

/** One version as the export has it: the version, its files with their content in base64. */
export function exportedVersion(view: Skill, bundle: SkillBundle): SkillExport['versions'][number] {
  const contents = new Map(bundle.files.map((f) => [f.path, f.content]));
  const { files, ...rest } = view;
  return {
    ...rest,
    files: files.map((f) => ({ ...f, content_base64: Buffer.from(contents.get(f.path)!).toString('base64') })),
  };
}

export function toSkillExport(row: SkillExportRow, versions: SkillExport['versions']): SkillExport {
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility as SkillExport['visibility'],
    created_at: row.created_at,
    updated_at: row.updated_at,
    latest_version: row.latest,
    versions,
  };
}
