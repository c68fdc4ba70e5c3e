// The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): skills/list, skills/get, the
// skill:// resources and the draft revision's skill://index.json. A skill is served as an MCP skill when its
// SKILL.md conforms to the Agent Skills format, since the SEP's entry carries the frontmatter verbatim and
// its URI must end in the frontmatter's name; other skills stay readable through get_skill.
import { ErrorCode, McpError, type Resource } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { HostSkill } from '../domain/host-skills.js';
import { hostFiles, type RegistryBackend, type SkillFile } from './backend.js';
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

/** A skill the registry serves as an MCP skill (it has frontmatter kept for hosts: it conforms), with its files. */
export interface ServedSkill {
  skill: HostSkill & { frontmatter: string };
  files: SkillFile[];
}

/** The URI of a host skill's file (SKILL.md by default). */
const uriOf = (skill: HostSkill, file?: string) => skillUri({ agent_id: skill.agentId, name: skill.name }, file);

function serve(skill: HostSkill): ServedSkill | null {
  return skill.frontmatter === null
    ? null
    : { skill: { ...skill, frontmatter: skill.frontmatter }, files: hostFiles(skill) };
}

export function skillEntry({ skill, files }: ServedSkill): SkillEntry {
  const frontmatter = JSON.parse(skill.frontmatter) as Record<string, unknown>;
  return {
    uri: uriOf(skill),
    frontmatter,
    resources: files.map((file) => ({ uri: uriOf(skill, file.path), digest: file.digest })),
  };
}

const notFound = (uri: string, why = 'not found') => new McpError(ErrorCode.InvalidParams, `Resource ${uri} ${why}`);

/**
 * One page of the skills the caller may see, served as MCP skills, in the registry's list order (best
 * quality first), from what was kept at publication (no SKILL.md is read). A page may hold fewer entries
 * than skills read: skills that do not conform are left out, as the SEP allows a partial listing.
 */
export async function servedSkillPage(
  backend: RegistryBackend,
  cursor: string | undefined,
): Promise<{ served: ServedSkill[]; nextCursor?: string }> {
  const offset = decodeCursor(cursor);
  if (offset === null)
    throw new McpError(ErrorCode.InvalidParams, 'invalid cursor: pass back a nextCursor this server gave');
  const page = await backend.hostSkillPage(offset);
  const served: ServedSkill[] = [];
  const seen = new Set<string>();
  for (const skill of page.skills) {
    const uri = uriOf(skill);
    // A publisher's name is one skill; only skills published twice under one name before versions existed
    // (kept as they were) share a URI, and the newest of them holds it.
    if (seen.has(uri)) continue;
    seen.add(uri);
    const entry = serve(skill);
    if (entry) served.push(entry);
  }
  const next = offset + page.read;
  return next < page.total && page.read > 0 ? { served, nextCursor: encodeCursor(next) } : { served };
}

/** The skill a skill:// URI's publisher and name address, served as an MCP skill, or null. */
async function servedAt(backend: RegistryBackend, publisher: string, name: string): Promise<ServedSkill | null> {
  const skill = await backend.findHostSkill(publisher, name);
  return skill && serve(skill);
}

/** The skill a SKILL.md URI names, served as an MCP skill, or an InvalidParams error. */
export async function servedSkillAt(backend: RegistryBackend, uri: string): Promise<ServedSkill> {
  const address = parseSkillUri(uri);
  if (!address || address.file !== SKILL_MD) throw notFound(uri, 'is not the SKILL.md of a skill this server serves');
  const served = await servedAt(backend, address.publisher, address.name);
  if (!served) throw notFound(uri);
  return served;
}

/** The resources of a served skill; SKILL.md's name and description are the frontmatter's (kept as the skill's), as the SEP asks. */
export function skillResources({ skill, files }: ServedSkill): Resource[] {
  return files.map((file) =>
    file.path === SKILL_MD
      ? {
          uri: uriOf(skill),
          name: skill.name,
          title: `${skill.name} (by ${skill.agentId})`,
          description: skill.description,
          mimeType: file.mimeType,
          size: file.size,
        }
      : { uri: uriOf(skill, file.path), name: file.path, mimeType: file.mimeType, size: file.size },
  );
}

export const INDEX_RESOURCE: Resource = {
  uri: INDEX_URI,
  name: 'index.json',
  title: 'Skill index',
  description:
    'The skills of this registry as an Agent Skills discovery index (the SEP-2640 draft revision; skills/list supersedes it)',
  mimeType: 'application/json',
};

/**
 * skill://index.json as the SEP's draft revision describes it. The draft allows a partial index, and this
 * is one: the first page of skills/list (the best-rated skills).
 */
export async function skillIndex(backend: RegistryBackend): Promise<string> {
  const { served } = await servedSkillPage(backend, undefined);
  const skills = served.map(({ skill }) => ({
    name: skill.name,
    type: 'skill-md',
    description: skill.description,
    url: uriOf(skill),
  }));
  return JSON.stringify({ $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json', skills });
}

/** Reads one resource: the index, or a file of a skill the caller may see. */
export async function readSkillResource(backend: RegistryBackend, uri: string) {
  if (uri === INDEX_URI) return { contents: [{ uri, mimeType: 'application/json', text: await skillIndex(backend) }] };
  const address = parseSkillUri(uri);
  if (!address) throw notFound(uri);
  const served = await servedAt(backend, address.publisher, address.name);
  const file = served?.files.find((f) => f.path === address.file);
  if (!served || !file) throw notFound(uri);
  return { contents: [{ uri, mimeType: file.mimeType, ...(await backend.readSkillFile(served.skill, file)) }] };
}
