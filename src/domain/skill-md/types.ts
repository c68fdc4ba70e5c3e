// The result of parsing a SKILL.md, and the stable ids of its warnings and refusals.
import { MAX_WARNINGS_PER_KIND } from './limits.js';

export interface SkillDocument {
  /** The conformant slug (a-z 0-9 -), the skill's identity within its publisher. */
  name: string;
  /** The name as given, trimmed; equal to `name` when that was conformant. */
  displayName: string;
  description: string;
  license: string | null;
  compatibility: string | null;
  domain: string | null;
  tags: string[]; // trimmed, de-duplicated (case-insensitive, first spelling kept), order kept
  allowedTools: string[];
  /** metadata as given (scalars as their text); {} when absent or not a mapping. */
  metadata: Record<string, unknown>;
  /** metadata.version, else a top-level version, as given (not validated). */
  version: string | null;
  body: string; // the markdown after the closing --- line (line endings normalised to \n)
}

/**
 * Deviations from the Agent Skills format: a skill with any of them is not conformant.
 * - yaml_lenient: the frontmatter is not valid YAML (or repeats a key); it was read the way agent runtimes read it
 * - name_normalized: the name breaks the name rule; `name` is a slug made from it
 * - description_long: the description is over 1,024 characters
 * - unknown_field: a top-level field the format does not define
 * - nonconformant_field: a defined field of the wrong shape (metadata values that are not strings,
 *   compatibility over 500 characters, ...) or a registry field (tags, domain, version) at the top level
 */
export const CONFORMANCE_KINDS = [
  'yaml_lenient',
  'name_normalized',
  'description_long',
  'unknown_field',
  'nonconformant_field',
] as const;

/**
 * Soft findings about the content, which say nothing about conformance.
 * - value_ignored: a tag, domain or tool the registry does not index (over its limits, or not text)
 * - empty_body, long_body: the markdown body is empty, or over 500 lines or 50,000 characters
 * - invisible_characters, control_characters, html, prompt_injection: from scanText, over the whole SKILL.md
 *   (html: the body only)
 */
export const CONTENT_KINDS = [
  'value_ignored',
  'empty_body',
  'long_body',
  'invisible_characters',
  'control_characters',
  'html',
  'prompt_injection',
] as const;

export type ConformanceKind = (typeof CONFORMANCE_KINDS)[number];
export type ContentKind = (typeof CONTENT_KINDS)[number];
export type SkillWarningKind = ConformanceKind | ContentKind;

export interface SkillWarning {
  kind: SkillWarningKind;
  message: string;
  /** The bundle file the finding is about (scanText's file argument); absent for SKILL.md itself. */
  file?: string;
}

/** Why a SKILL.md was refused: only what no agent runtime could load, and the size bounds. */
export type SkillRefusalRule =
  | 'content_too_large' // over MAX_SKILL_MD_CHARS
  | 'no_frontmatter' // no --- line first, or no closing --- line
  | 'frontmatter_too_large' // over MAX_FRONTMATTER_CHARS or _LINES, or expands through aliases beyond _EXPANDED_CHARS
  | 'too_many_keys' // over MAX_FRONTMATTER_KEYS
  | 'too_many_values' // over MAX_FRONTMATTER_VALUES
  | 'too_deep' // over MAX_FRONTMATTER_DEPTH
  | 'not_a_mapping' // valid YAML that is not `key: value` fields (a list, a text, nothing)
  | 'no_name' // name missing, empty, not text, or without a letter or digit to make a slug from
  | 'no_description' // description missing, empty or not text
  | 'description_too_long' // over MAX_DESCRIPTION_CHARS
  | 'control_characters' // a control character in the name, description, license, compatibility, domain or a tag
  | 'unreadable'; // defensive: an unexpected internal failure

export type SkillParseResult =
  | { ok: true; skill: SkillDocument; warnings: SkillWarning[]; conformant: boolean }
  | { ok: false; rule: SkillRefusalRule; field: string; message: string };

const CONFORMANCE = new Set<string>(CONFORMANCE_KINDS);

/** True for the kinds that make a skill non-conformant (see CONFORMANCE_KINDS). */
export function isConformanceKind(kind: string): boolean {
  return CONFORMANCE.has(kind);
}

/** Thrown inside the parser for a refusal; parseSkillMd turns it into an ok:false result. */
export class Refusal extends Error {
  readonly rule: SkillRefusalRule;
  readonly field: string;
  constructor(rule: SkillRefusalRule, field: string, message: string) {
    super(message);
    this.rule = rule;
    this.field = field;
  }
}

/** Collects warnings in order, at most MAX_WARNINGS_PER_KIND of a kind, then one "N more" warning per kind. */
export class WarningList {
  private readonly items: SkillWarning[] = [];
  private readonly counts = new Map<SkillWarningKind, number>();
  private readonly overflow = new Map<SkillWarningKind, { count: number; what: string }>();

  /** `what` names the warnings in the summary ("more unknown frontmatter fields"). */
  add(kind: SkillWarningKind, message: string, what = `more ${kind} warnings`): void {
    const count = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, count);
    if (count <= MAX_WARNINGS_PER_KIND) this.items.push({ kind, message });
    else this.overflow.set(kind, { count: count - MAX_WARNINGS_PER_KIND, what });
  }

  has(kind: SkillWarningKind): boolean {
    return this.counts.has(kind);
  }

  list(): SkillWarning[] {
    const out = [...this.items];
    for (const [kind, { count, what }] of this.overflow) {
      // The summary goes right after the last listed warning of its kind, so kinds stay grouped.
      let at = out.length;
      for (let i = out.length - 1; i >= 0; i--) {
        if (out[i]!.kind === kind) {
          at = i + 1;
          break;
        }
      }
      out.splice(at, 0, { kind, message: `${count} ${what}` });
    }
    return out;
  }
}
