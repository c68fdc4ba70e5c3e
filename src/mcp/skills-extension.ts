// The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): skills/list, skills/get, the
// skill:// resources and the draft revision's skill://index.json. A skill is served as an MCP skill when its
// SKILL.md conforms to the Agent Skills format, since the SEP's entry carries the frontmatter verbatim and
// its URI must end in the frontmatter's name; other skills stay readable through get_skill.
import { ErrorCode, McpError, type Resource } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ApiError } from '../domain/errors.js';
import type { Skill } from '../domain/model.js';
import { parseSkillMd } from '../domain/skill-md.js';
import { splitFrontmatter } from '../domain/skill-md/frontmatter.js';
import { parseYaml } from '../domain/skill-md/convert.js';
import type { RegistryBackend, SkillFile } from './backend.js';
import { decodeCursor, encodeCursor, INDEX_URI, parseSkillUri, SKILL_MD, skillUri } from './skill-uris.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export const ListSkillsRequestSchema = z.object({
  method: z.literal('skills/list'),
  params: z.looseObject({ cursor: z.string().optional() }).optional(),
});
export const GetSkillRequestSchema = z.object({
  method: z.literal('skills/get'),
  params: z.looseObject({ uri: z.string() }),
});

export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string }[];
}

/** A skill the registry serves as an MCP skill, with its files. */
export interface ServedSkill {
  skill: Skill;
  frontmatter: Record<string, unknown>;
  files: SkillFile[];
}

/**
 * The SKILL.md frontmatter as JSON, verbatim (what a host gets by parsing the YAML), when the skill conforms
 * to the Agent Skills format and its name is the one its URI ends in; otherwise null.
 */
export function servedFrontmatter(skill: Skill): Record<string, unknown> | null {
  const parsed = parseSkillMd(skill.skill_md_content);
  if (!parsed.ok || !parsed.conformant) return null;
  const document = parseYaml(splitFrontmatter(skill.skill_md_content).yamlText);
  if (document.errors.length > 0) return null;
  const frontmatter = document.toJS({ maxAliasCount: 100 }) as unknown;
  if (typeof frontmatter !== 'object' || frontmatter === null || Array.isArray(frontmatter)) return null;
  return (frontmatter as Record<string, unknown>).name === skill.name ? (frontmatter as Record<string, unknown>) : null;
}

async function serve(backend: RegistryBackend, skill: Skill): Promise<ServedSkill | null> {
  const frontmatter = servedFrontmatter(skill);
  return frontmatter ? { skill, frontmatter, files: await backend.skillFiles(skill) } : null;
}

export function skillEntry({ skill, frontmatter, files }: ServedSkill): SkillEntry {
  return { uri: skillUri(skill), frontmatter, resources: files.map((file) => ({ uri: skillUri(skill, file.path), digest: file.digest })) };
}

/** A listed skill read whole; null when it was deleted since the list was read. */
async function readListed(backend: RegistryBackend, id: string): Promise<Skill | null> {
  try {
    return await backend.getSkill(id);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return null;
    throw error;
  }
}

const notFound = (uri: string, why = 'not found') => new McpError(ErrorCode.InvalidParams, `Resource ${uri} ${why}`);

/**
 * One page of the skills the caller may see, served as MCP skills, in the registry's list order (best
 * quality first). A page may hold fewer entries than skills read: skills that do not conform are left
 * out, as the SEP allows a partial listing.
 */
export async function servedSkillPage(backend: RegistryBackend, cursor: string | undefined): Promise<{ served: ServedSkill[]; nextCursor?: string }> {
  const offset = decodeCursor(cursor);
  if (offset === null) throw new McpError(ErrorCode.InvalidParams, 'invalid cursor: pass back a nextCursor this server gave');
  const page = await backend.searchSkills({ limit: backend.skillPageSize, offset });
  const served: ServedSkill[] = [];
  const seen = new Set<string>();
  for (const summary of page.data) {
    const uri = skillUri(summary);
    // A publisher's name is one skill; only skills published twice under one name before versions existed
    // (kept as they were) share a URI, and the newest of them holds it.
    if (seen.has(uri)) continue;
    seen.add(uri);
    const skill = await readListed(backend, summary.id);
    const entry = skill && (await serve(backend, skill));
    if (entry) served.push(entry);
  }
  const next = offset + page.data.length;
  return next < page.total && page.data.length > 0 ? { served, nextCursor: encodeCursor(next) } : { served };
}

/** The skill a SKILL.md URI names, served as an MCP skill, or an InvalidParams error. */
export async function servedSkillAt(backend: RegistryBackend, uri: string): Promise<ServedSkill> {
  const address = parseSkillUri(uri);
  if (!address || address.file !== SKILL_MD) throw notFound(uri, 'is not the SKILL.md of a skill this server serves');
  const skill = await backend.findSkill(address.publisher, address.name);
  const served = skill && (await serve(backend, skill));
  if (!served) throw notFound(uri);
  return served;
}

/** The resources of a served skill; SKILL.md's name and description are the frontmatter's, as the SEP asks. */
export function skillResources({ skill, frontmatter, files }: ServedSkill): Resource[] {
  return files.map((file) =>
    file.path === SKILL_MD
      ? {
          uri: skillUri(skill),
          name: skill.name,
          title: `${skill.name} (by ${skill.agent_id})`,
          description: typeof frontmatter.description === 'string' ? frontmatter.description : skill.description,
          mimeType: file.mimeType,
          size: file.size,
        }
      : { uri: skillUri(skill, file.path), name: file.path, mimeType: file.mimeType, size: file.size },
  );
}

export const INDEX_RESOURCE: Resource = {
  uri: INDEX_URI,
  name: 'index.json',
  title: 'Skill index',
  description: 'The skills of this registry as an Agent Skills discovery index (the SEP-2640 draft revision; skills/list supersedes it)',
  mimeType: 'application/json',
};

/**
 * skill://index.json as the SEP's draft revision describes it. The draft allows a partial index, and this
 * is one: the first page of skills/list (the best-rated skills).
 */
export async function skillIndex(backend: RegistryBackend): Promise<string> {
  const { served } = await servedSkillPage(backend, undefined);
  const skills = served.map(({ skill }) => ({ name: skill.name, type: 'skill-md', description: skill.description, url: skillUri(skill) }));
  return JSON.stringify({ $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json', skills });
}

/** Reads one resource: the index, or a file of a skill the caller may see. */
export async function readSkillResource(backend: RegistryBackend, uri: string) {
  if (uri === INDEX_URI) return { contents: [{ uri, mimeType: 'application/json', text: await skillIndex(backend) }] };
  const address = parseSkillUri(uri);
  if (!address) throw notFound(uri);
  const skill = await backend.findSkill(address.publisher, address.name);
  const served = skill && (await serve(backend, skill));
  const file = served?.files.find((f) => f.path === address.file);
  if (!served || !file) throw notFound(uri);
  return { contents: [{ uri, mimeType: file.mimeType, ...(await backend.readSkillFile(served.skill, file)) }] };
}
