// Parses a SKILL.md (YAML frontmatter + markdown body) the way agent runtimes load it, and says where it
// departs from the Agent Skills format. Pure: no I/O, never throws, linear in the input.
//
// Refused (ok: false, with a stable `rule`) is only what no runtime could load (no frontmatter, no name, no
// description) and what is over a bound (limits.ts). Everything else is accepted: each deviation from the
// format becomes a warning of a conformance kind, and `conformant` is true iff there is none. Soft findings
// about the content (html, prompt_injection, ...) are warnings too, but do not affect conformance.
import { codePoints } from './skill-md/field-values.js';
import { readFields } from './skill-md/fields.js';
import { readFrontmatter, splitFrontmatter } from './skill-md/frontmatter.js';
import { LONG_BODY_CHARS, LONG_BODY_LINES, MAX_SKILL_MD_CHARS } from './skill-md/limits.js';
import { controlCharacters, html, invisibleCharacters, promptInjection } from './skill-md/scan.js';
import { isConformanceKind, Refusal, WarningList, type SkillParseResult } from './skill-md/types.js';

export { skillSlug } from './skill-md/fields.js';
export { hostFrontmatter } from './skill-md/host-frontmatter.js';
export * from './skill-md/limits.js';
export { scanText } from './skill-md/scan.js';
export {
  CONFORMANCE_KINDS,
  CONTENT_KINDS,
  isConformanceKind,
  type SkillDocument,
  type SkillParseResult,
  type SkillWarning,
} from './skill-md/types.js';

const CONTENT = 'skill_md_content';

/**
 * A SKILL.md read into a SkillDocument with its warnings and conformance, or the rule it breaks. A refusal's
 * message names the field and ends with the rule id, e.g. "frontmatter.name is required (rule no_name)".
 */
export function parseSkillMd(content: string): SkillParseResult {
  try {
    return parse(content);
  } catch (err) {
    if (err instanceof Refusal)
      return { ok: false, rule: err.rule, field: err.field, message: `${err.message} (rule ${err.rule})` };
    // Defensive: anything unexpected is still a result, never an exception.
    const said = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
    return {
      ok: false,
      rule: 'unreadable',
      field: CONTENT,
      message: `SKILL.md could not be parsed: ${said} (rule unreadable)`,
    };
  }
}

function parse(content: string): SkillParseResult {
  if (typeof content !== 'string') throw new Refusal('no_frontmatter', CONTENT, 'SKILL.md must be text');
  if (content.length > MAX_SKILL_MD_CHARS && codePoints(content) > MAX_SKILL_MD_CHARS) {
    throw new Refusal('content_too_large', CONTENT, `SKILL.md must be at most ${MAX_SKILL_MD_CHARS} characters`);
  }
  const { yamlText, body } = splitFrontmatter(content);
  const warnings = new WarningList();
  const fm = readFrontmatter(yamlText, warnings);
  const fields = readFields(fm, warnings);

  const lineCount = body === '' ? 0 : body.split('\n').length - (body.endsWith('\n') ? 1 : 0);
  if (body.trim() === '') warnings.add('empty_body', 'the body is empty: add instructions after the frontmatter');
  else if (lineCount > LONG_BODY_LINES || body.length > LONG_BODY_CHARS) {
    warnings.add(
      'long_body',
      `the body is long (${lineCount} lines, ${body.length} characters); keep SKILL.md under ${LONG_BODY_LINES} lines and move detail into referenced files`,
    );
  }
  // The content findings of scanText, with html looked for in the body only.
  const findings = [
    invisibleCharacters(content.replace(/^\uFEFF/, '')),
    controlCharacters(content),
    html(body),
    promptInjection(content),
  ];
  for (const finding of findings) {
    if (finding) warnings.add(finding.kind, finding.message);
  }

  const list = warnings.list();
  return {
    ok: true,
    skill: { ...fields, body },
    warnings: list,
    conformant: !list.some((w) => isConformanceKind(w.kind)),
  };
}
