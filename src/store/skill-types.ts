// Skills as the store takes and gives them: a version to write, the publication the service plans
// (create, version or the same again) and the race it may lose, files and bundles as served, the export
// of a skill and the discovery index's entries. Re-exported from store.ts.
import type { Security, Skill, SkillFile, SkillWarning, Visibility } from '../domain/model.js';
import type { NewDecision } from './decision-types.js';
export type { HostSkill } from '../domain/host-skills.js';

/** A version of a skill as it is stored: its SKILL.md, what was read from it, and its files. */
export interface NewSkillVersion {
  version: string;
  /** Its place in semver precedence (domain/versions.ts versionSortKey), and whether it is a release. */
  sortKey: string;
  release: boolean;
  digest: string;
  displayName: string;
  description: string;
  domain: string | null;
  tags: string[];
  license: string | null;
  qualityScore: number;
  conformant: boolean;
  warnings: SkillWarning[];
  skillMd: string;
  /** SKILL.md's own sha256 digest (`sha256:<hex>`) and size in bytes, as file listings give them. */
  skillMdDigest: string;
  skillMdBytes: number;
  /** The frontmatter as JSON text for agent hosts (hostFrontmatter); null when the skill is not served to them. */
  frontmatter: string | null;
  /** The markdown after the frontmatter, which search indexes. */
  body: string;
  files: readonly StoredFile[];
  publishedAt: string;
  /** What the scanner found, kept with the version (absent: not scanned). */
  security?: Security;
}

export interface StoredFile {
  path: string;
  content: Uint8Array;
  size: number;
  digest: string;
  mediaType: string;
}

/**
 * A publication, planned by the service from what it read (SkillIdentity): a new skill, a new version
 * of an existing one, or the same content again (nothing to write but the idempotent answer). Written
 * in one transaction; PublishRaceError when another publication of the same name got in between, so the
 * service plans again from fresh reads.
 */
export interface SkillPlan {
  kind: 'create' | 'version' | 'same';
  skillId: string;
  agentId: string;
  name: string;
  visibility: Visibility;
  version: NewSkillVersion;
  /** The reward for a new skill (new versions earn nothing). */
  rewardMillis: number;
  /** Versions a skill may hold (null: no bound); the store counts them inside the write (VersionLimitError). */
  maxVersions: number | null;
  /** The scanner's hold of the new version, applied in the same transaction as a moderator's decision is. */
  hold?: NewDecision;
}

/** A skill's identity, as a publication plans from it. */
export interface SkillIdentity {
  skillId: string;
  visibility: Visibility;
}

/** Raised when a new version would take a skill over its bound of versions; nothing is written. */
export class VersionLimitError extends Error {
  constructor(readonly limit: number) {
    super(`a skill holds at most ${limit} versions`);
  }
}

/** Raised when a concurrent publication of the same name changed what the plan was made from. */
export class PublishRaceError extends Error {
  constructor() {
    super('another publication of this skill got in first');
  }
}

/** One skill for the bulk path: created with its first version, as publishSkill would. */
export interface SkillImport {
  plan: SkillPlan;
}

/** A file as served: its bytes and what they are. */
export interface SkillFileContent {
  version: string;
  content: Uint8Array;
  size: number;
  digest: string;
  mediaType: string;
}

/** Everything one version holds, for its archive and the export. */
export interface SkillBundle {
  version: string;
  skillMd: string;
  files: { path: string; content: Uint8Array }[];
}

/** A skill as the export has it: the skill, then every version with its files (content in base64). */
export interface SkillExport {
  id: string;
  name: string;
  visibility: Visibility;
  created_at: string;
  updated_at: string;
  latest_version: string | null;
  versions: (Omit<Skill, 'files'> & { files: (SkillFile & { content_base64: string })[] })[];
}

/** A discovery-index entry: a public skill's latest version. */
export interface DiscoveryEntry {
  id: string;
  name: string;
  description: string;
  version: string;
  digest: string;
  fileCount: number;
}
