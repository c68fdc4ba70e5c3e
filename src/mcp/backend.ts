// What the MCP server needs from the registry, as one interface with two implementations: the services
// themselves (the /mcp route, service-backend.ts) and the REST API over HTTP (the stdio proxy,
// cli/rest-backend.ts). Tools and resources are written once against it, so both transports serve the same
// tools with the same answers. Refusals are thrown as ApiError (status, code, message) by either one.
import type { OsvRecord } from '../domain/advisories.js';
import type { HostSkill } from '../domain/host-skills.js';
import type { KnowledgeUnit, ReputationProfile, Skill, SkillFile as StoredFile } from '../domain/model.js';
import type { SkillSummary, UnitSummary } from '../domain/summaries.js';
import type { SkillBody, SkillListQuery, UnitBody, UnitListQuery, VerdictBody } from '../http/schemas.js';
import { sha256Digest } from '../domain/bundles.js';
import { isTextType, SKILL_MD } from './skill-uris.js';

export interface ListPage<T> {
  data: T[];
  total: number;
  offset: number;
  limit: number;
}

/** One file of a skill, as skills/list, resources/list and get_skill describe it. */
export interface SkillFile {
  /** Path inside the skill, `/`-separated. */
  path: string;
  /** `sha256:<hex>` of the file's bytes. */
  digest: string;
  size: number;
  mimeType: string;
}

export type SkillFileContent = { text: string } | { blob: string };

export interface RegistryBackend {
  /** The caller's credential authenticated (write tools are listed only then). */
  readonly authenticated: boolean;

  searchSkills(query: SkillListQuery): Promise<ListPage<SkillSummary>>;
  getSkill(id: string): Promise<Skill>;
  searchUnits(query: UnitListQuery): Promise<ListPage<UnitSummary>>;
  getUnit(id: string): Promise<KnowledgeUnit>;
  contributeUnit(body: UnitBody): Promise<{ data: KnowledgeUnit; quality_score: number }>;
  contributeSkill(body: SkillBody): Promise<{ data: Skill; warnings: string[] }>;
  validateUnit(id: string, verdict: VerdictBody): Promise<{ id: string; validated: boolean; feedback: string }>;
  /** The advisories about a skill, newest first (at most 100). */
  skillAdvisories(skillId: string): Promise<OsvRecord[]>;
  /** The profile with at most `historyLimit` newest history items. */
  reputation(agentId: string, historyLimit: number): Promise<ReputationProfile>;

  /**
   * A page of the skills list from `offset`, as hosts are served them (frontmatter and file listing, no
   * content): `read` list items were covered, of `total`.
   */
  hostSkillPage(offset: number): Promise<{ skills: HostSkill[]; read: number; total: number }>;
  /** The skill `publisher` published as `name`, as hosts are served it, when the caller may see it; else null. */
  findHostSkill(publisher: string, name: string): Promise<HostSkill | null>;
  /** Every file of a skill at the version read, SKILL.md first, then its bundle. */
  skillFiles(skill: Skill): Promise<SkillFile[]>;
  /** One file's content (text for text files, base64 `blob` otherwise) of the skill at `version`. */
  readSkillFile(skill: { id: string; version: string }, file: SkillFile): Promise<SkillFileContent>;
}

/** A bundle file as MCP lists it: the registry's own media type, without parameters. */
const listed = (f: StoredFile): SkillFile => ({
  path: f.path,
  digest: f.digest,
  size: f.size,
  mimeType: f.media_type.split(';')[0]!,
});

/** A skill's files: its SKILL.md, then its bundle (scripts, references, assets) with their digests. */
export function bundleFiles(skill: Skill): SkillFile[] {
  const md = {
    path: SKILL_MD,
    digest: sha256Digest(skill.skill_md_content),
    size: Buffer.byteLength(skill.skill_md_content, 'utf8'),
    mimeType: 'text/markdown',
  };
  return [md, ...skill.files.map(listed)];
}

/** A host skill's files, from what was kept at publication. */
export function hostFiles(skill: HostSkill): SkillFile[] {
  return [
    { path: SKILL_MD, digest: skill.skillMd.digest, size: skill.skillMd.size, mimeType: 'text/markdown' },
    ...skill.files.map(listed),
  ];
}

/** A file's bytes as MCP carries them: text for text types, base64 otherwise. */
export function fileContent(file: SkillFile, bytes: Uint8Array): SkillFileContent {
  const buffer = Buffer.from(bytes);
  return isTextType(file.mimeType) ? { text: buffer.toString('utf8') } : { blob: buffer.toString('base64') };
}
