// The frontmatter an agent host is given for a skill (MCP's skills/list carries it verbatim, as JSON): the
// YAML parsed as it stands. Only a SKILL.md that follows the Agent Skills format has one, since a host
// matches the frontmatter's name against the skill's address; computed once, at publication, and kept
// with the version, so listings never parse YAML. Pure.
import { parseYaml } from './convert.js';
import { splitFrontmatter } from './frontmatter.js';

/**
 * The frontmatter as JSON text when `content` conforms and its YAML names `name`; otherwise null (the
 * skill is then served by id only).
 */
export function hostFrontmatter(content: string, name: string, conformant: boolean): string | null {
  if (!conformant) return null;
  let yamlText: string;
  try {
    yamlText = splitFrontmatter(content).yamlText;
  } catch {
    return null;
  }
  const document = parseYaml(yamlText);
  if (document.errors.length > 0) return null;
  const frontmatter = document.toJS({ maxAliasCount: 100 }) as unknown;
  if (typeof frontmatter !== 'object' || frontmatter === null || Array.isArray(frontmatter)) return null;
  return (frontmatter as Record<string, unknown>).name === name ? JSON.stringify(frontmatter) : null;
}
